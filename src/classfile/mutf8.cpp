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

// Decodes one modified-UTF-8 unit (1-3 bytes) at s[i]; input assumed valid.
uint32_t decodeUnit(std::string_view s, size_t& i) {
  auto b0 = static_cast<uint8_t>(s[i]);
  if (b0 < 0x80) {
    i += 1;
    return b0;
  }
  if ((b0 & 0xE0) == 0xC0 && i + 1 < s.size()) {
    uint32_t cp = (b0 & 0x1Fu) << 6 | (static_cast<uint8_t>(s[i + 1]) & 0x3Fu);
    i += 2;
    return cp;
  }
  if (i + 2 < s.size()) {
    uint32_t cp = (b0 & 0x0Fu) << 12 | (static_cast<uint8_t>(s[i + 1]) & 0x3Fu) << 6 |
                  (static_cast<uint8_t>(s[i + 2]) & 0x3Fu);
    i += 3;
    return cp;
  }
  i += 1;
  return 0xFFFD;
}
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

std::string toUtf8(std::string_view s) {
  if (isPlainAscii(s)) return std::string(s);
  std::string out;
  out.reserve(s.size());
  size_t i = 0;
  while (i < s.size()) {
    uint32_t cp = decodeUnit(s, i);
    if (cp >= 0xD800 && cp <= 0xDBFF && i < s.size()) {
      size_t j = i;
      uint32_t lo = decodeUnit(s, j);
      if (lo >= 0xDC00 && lo <= 0xDFFF) {
        cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
        i = j;
      }
    }
    putUtf8(out, cp);
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
    auto b0 = static_cast<uint8_t>(s[i]);
    uint32_t cp = 0xFFFD;
    size_t len = 1;
    if (b0 < 0x80) {
      cp = b0;
    } else if ((b0 & 0xE0) == 0xC0) {
      len = 2;
    } else if ((b0 & 0xF0) == 0xE0) {
      len = 3;
    } else if ((b0 & 0xF8) == 0xF0) {
      len = 4;
    }
    if (len > 1) {
      bool ok = i + len <= s.size();
      for (size_t k = 1; ok && k < len; ++k) ok = isCont(static_cast<uint8_t>(s[i + k]));
      if (ok) {
        cp = b0 & (0x7F >> len);
        for (size_t k = 1; k < len; ++k) cp = cp << 6 | (static_cast<uint8_t>(s[i + k]) & 0x3F);
        // Overlong forms, UTF-16 surrogates and values past U+10FFFF are not UTF-8:
        // replace them (decoding an overlong '/' would smuggle a separator into a name).
        static constexpr uint32_t kMin[5] = {0, 0, 0x80, 0x800, 0x10000};
        if (cp < kMin[len] || (cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF) {
          cp = 0xFFFD;
          len = 1;
        }
      } else {
        len = 1;
      }
    }
    i += len;
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
