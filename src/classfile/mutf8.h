// Modified UTF-8 (JVMS 4.4.7): NUL is encoded as C0 80, supplementary characters as
// two 3-byte surrogates, and no 4-byte forms exist.
#pragma once

#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>

namespace dragnet::classfile::mutf8 {

// Returns the offset of the first invalid byte, or nullopt if `bytes` is legal modified
// UTF-8 (the check HotSpot applies to every Utf8 constant). Like HotSpot, overlong forms
// other than C0 80 are rejected only for class files of version 48 and later.
std::optional<size_t> firstInvalid(std::string_view bytes, bool rejectOverlong = true);

// Modified UTF-8 -> well-formed standard UTF-8, for any input: surrogate pairs are joined
// into one character, NUL (C0 80, or a 0 byte) becomes `nul`, standard UTF-8's 4-byte forms
// are kept (text from outside class files, a path say, may have them), and each ill-formed
// sequence becomes U+FFFD: a stray continuation byte, a sequence cut short, an overlong
// form, a value past U+10FFFF, a surrogate without its other half.
std::string toUtf8(std::string_view mutf8, std::string_view nul = std::string_view("\0", 1));

// Standard UTF-8 -> modified UTF-8. Each ill-formed input sequence (as above, with C0 80
// and surrogates ill-formed too) is encoded as U+FFFD.
std::string fromUtf8(std::string_view utf8);

namespace detail {
// Nonzero unless each of the 8 (or 4) bytes is 0x01..0x7F: a high bit, or a zero byte
// (whose decrement borrows into its high bit), leaves a bit under the mask. Borrows only
// arise from a byte that is itself bad, so a zero result is exact.
inline uint64_t notAscii8(const char* p) {
  uint64_t w;
  std::memcpy(&w, p, 8);
  return (w | (w - 0x0101010101010101ull)) & 0x8080808080808080ull;
}
inline uint32_t notAscii4(const char* p) {
  uint32_t w;
  std::memcpy(&w, p, 4);
  return (w | (w - 0x01010101u)) & 0x80808080u;
}
}  // namespace detail

// True if every byte is 0x01..0x7F, in which case both encodings are identical. Inline and
// branch-light: the parser asks it of every Utf8 constant (nearly all are plain ASCII)
// before the full rules of firstInvalid. The last word overlaps the previous one rather
// than finishing byte by byte.
inline bool isPlainAscii(std::string_view bytes) {
  const char* p = bytes.data();
  const size_t n = bytes.size();
  if (n >= 8) {
    uint64_t bad = 0;
    for (size_t i = 0; i + 8 < n; i += 8) bad |= detail::notAscii8(p + i);
    return (bad | detail::notAscii8(p + n - 8)) == 0;
  }
  if (n >= 4) return (detail::notAscii4(p) | detail::notAscii4(p + n - 4)) == 0;
  bool ok = true;
  for (size_t i = 0; i < n; ++i) ok &= static_cast<uint8_t>(p[i] - 1) < 0x7F;
  return ok;
}

}  // namespace dragnet::classfile::mutf8
