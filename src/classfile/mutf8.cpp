#include "classfile/mutf8.h"

#include <cstdint>
#include <cstring>

namespace dragnet::classfile::mutf8 {

namespace {
bool isCont(uint8_t b) { return (b & 0xC0) == 0x80; }

void putUtf8(std::string& out, uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | cp >> 6);
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | cp >> 12);
    out += static_cast<char>(0x80 | (cp >> 6 & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | cp >> 18);
    out += static_cast<char>(0x80 | (cp >> 12 & 0x3F));
    out += static_cast<char>(0x80 | (cp >> 6 & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

constexpr uint32_t kIllFormed = 0xFFFFFFFF;

// The character at s[i] (i moves past it): a 1-3 byte unit of modified UTF-8 (C0 80 is NUL
// only if `modified`; a surrogate is returned as itself, for the caller to pair) or standard
// UTF-8's 4-byte form. kIllFormed for an ill-formed sequence: a stray continuation byte, a
// lead byte F8..FF, a sequence cut short (i moves past its lead and the continuation bytes
// it has), an overlong form or a value past U+10FFFF (i moves past the whole sequence).
uint32_t decodeChecked(std::string_view s, size_t& i, bool modified) {
  auto b0 = static_cast<uint8_t>(s[i]);
  if (b0 < 0x80) {
    i += 1;
    return b0;
  }
  const size_t len = (b0 & 0xE0) == 0xC0   ? 2
                     : (b0 & 0xF0) == 0xE0 ? 3
                     : (b0 & 0xF8) == 0xF0 ? 4
                                           : 1;
  size_t n = 1;
  while (n < len && i + n < s.size() && isCont(static_cast<uint8_t>(s[i + n]))) ++n;
  const size_t at = i;
  i += n;
  if (len == 1 || n < len) return kIllFormed;
  uint32_t cp = b0 & (0x7Fu >> len);
  for (size_t k = 1; k < len; ++k) cp = cp << 6 | (static_cast<uint8_t>(s[at + k]) & 0x3Fu);
  // Overlong forms are not UTF-8 (decoding an overlong '/' would smuggle a separator into
  // a name), except modified UTF-8's C0 80.
  static constexpr uint32_t kMin[5] = {0, 0, 0x80, 0x800, 0x10000};
  if (cp < kMin[len] && !(modified && len == 2 && cp == 0)) return kIllFormed;
  if (cp > 0x10FFFF) return kIllFormed;
  return cp;
}

bool isHighSurrogate(uint32_t cp) { return cp >= 0xD800 && cp <= 0xDBFF; }
bool isSurrogate(uint32_t cp) { return cp >= 0xD800 && cp <= 0xDFFF; }
}  // namespace

std::optional<size_t> firstInvalid(std::string_view bytes, bool rejectOverlong) {
  size_t i = 0;
  const size_t n = bytes.size();
  while (i < n) {
    // Almost every constant is plain ASCII: skip it 8 bytes at a time. Anything else goes
    // through the byte-wise rules below, which report the exact offset.
    while (n - i >= 8 && detail::notAscii8(bytes.data() + i) == 0) i += 8;
    if (i == n) break;
    auto b0 = static_cast<uint8_t>(bytes[i]);
    if (b0 >= 0x01 && b0 < 0x80) {
      ++i;
    } else if ((b0 & 0xE0) == 0xC0) {
      if (i + 1 >= n || !isCont(static_cast<uint8_t>(bytes[i + 1]))) return i;
      // C0 80 encodes NUL; any other value below 0x80 is an overlong form.
      if (rejectOverlong && b0 < 0xC2 &&
          !(b0 == 0xC0 && static_cast<uint8_t>(bytes[i + 1]) == 0x80)) {
        return i;
      }
      i += 2;
    } else if ((b0 & 0xF0) == 0xE0) {
      if (i + 2 >= n || !isCont(static_cast<uint8_t>(bytes[i + 1])) ||
          !isCont(static_cast<uint8_t>(bytes[i + 2]))) {
        return i;
      }
      if (rejectOverlong && b0 == 0xE0 && static_cast<uint8_t>(bytes[i + 1]) < 0xA0) return i;
      i += 3;
    } else {
      return i;  // 0x00, a stray continuation byte, or a 4-byte lead (0xF0..0xFF)
    }
  }
  return std::nullopt;
}

std::string toUtf8(std::string_view s, std::string_view nul) {
  if (isPlainAscii(s)) return std::string(s);
  std::string out;
  out.reserve(s.size());
  size_t i = 0;
  while (i < s.size()) {
    uint32_t cp = decodeChecked(s, i, true);
    if (isHighSurrogate(cp) && i < s.size()) {
      size_t j = i;
      uint32_t lo = decodeChecked(s, j, true);
      if (isSurrogate(lo) && !isHighSurrogate(lo)) {
        cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
        i = j;
      }
    }
    if (cp == 0) {
      out += nul;
    } else {
      putUtf8(out, cp == kIllFormed || isSurrogate(cp) ? 0xFFFD : cp);
    }
  }
  return out;
}

std::string fromUtf8(std::string_view s) {
  if (isPlainAscii(s)) return std::string(s);
  std::string out;
  out.reserve(s.size() + 8);
  auto put16 = [&out](uint32_t u) {
    if (u == 0) {
      out += static_cast<char>(0xC0);
      out += static_cast<char>(0x80);
    } else {
      putUtf8(out, u);
    }
  };
  size_t i = 0;
  while (i < s.size()) {
    uint32_t cp = decodeChecked(s, i, false);
    if (cp == kIllFormed || isSurrogate(cp)) cp = 0xFFFD;  // surrogates are not UTF-8
    if (cp >= 0x10000) {
      cp -= 0x10000;
      put16(0xD800 + (cp >> 10));
      put16(0xDC00 + (cp & 0x3FF));
    } else {
      put16(cp);
    }
  }
  return out;
}

}  // namespace dragnet::classfile::mutf8
