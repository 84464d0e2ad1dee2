// Modified UTF-8: conversion both ways and validation (mutf8.h), and how the parser applies
// the validation to Utf8 constants.
#include "classfile/mutf8.h"

#include <gtest/gtest.h>

#include "../support/class_builder.h"

namespace dragnet::test {
namespace {

namespace mutf8 = cf::mutf8;
using namespace std::string_literals;

TEST(Mutf8Test, AsciiIsUnchanged) {
  EXPECT_EQ(mutf8::fromUtf8("java/lang/Object"), "java/lang/Object");
  EXPECT_EQ(mutf8::toUtf8("java/lang/Object"), "java/lang/Object");
  EXPECT_EQ(mutf8::fromUtf8(""), "");
  EXPECT_TRUE(mutf8::isPlainAscii("abc\x7F"));
  EXPECT_FALSE(mutf8::isPlainAscii("a\0b"s));
  EXPECT_FALSE(mutf8::isPlainAscii("\xC3\xA9"));
}

// The word-at-a-time test against the byte rule, for every length up to 40 and every
// position and kind of bad byte (0x00, 0x80, 0xFF), plus the all-good string.
TEST(Mutf8Test, PlainAsciiAgreesWithTheByteRuleAtEveryLengthAndPosition) {
  for (size_t n = 0; n <= 40; ++n) {
    std::string s(n, 'a');
    for (size_t i = 0; i < n; ++i) s[i] = static_cast<char>(0x01 + (i * 37) % 0x7F);
    ASSERT_TRUE(mutf8::isPlainAscii(s)) << n;
    for (size_t at = 0; at < n; ++at) {
      for (char bad : {'\0', '\x80', '\xFF'}) {
        std::string t = s;
        t[at] = bad;
        ASSERT_FALSE(mutf8::isPlainAscii(t)) << "length " << n << ", bad byte at " << at;
        // A bad byte just outside the view is not seen.
        std::string wider = s + bad;
        ASSERT_TRUE(mutf8::isPlainAscii(std::string_view(wider).substr(0, n))) << n;
      }
    }
  }
}

TEST(Mutf8Test, NulIsTwoBytes) {
  EXPECT_EQ(mutf8::fromUtf8("a\0b"s), "a\xC0\x80" "b");
  EXPECT_EQ(mutf8::fromUtf8("\0"s), "\xC0\x80");
  EXPECT_EQ(mutf8::toUtf8("a\xC0\x80" "b"), "a\0b"s);
  EXPECT_EQ(mutf8::toUtf8("\xC0\x80\xC0\x80"), "\0\0"s);
}

TEST(Mutf8Test, BmpCharactersKeepTheirStandardForm) {
  for (std::string s : {"\xC3\xA9"s /* é */, "\xE2\x82\xAC"s /* € */, "\xEF\xBF\xBF"s /* U+FFFF */,
                        "\xC2\x80"s /* U+0080 */, "\xDF\xBF"s /* U+07FF */,
                        "\xE0\xA0\x80"s /* U+0800 */, "\xE4\xB8\xAD\xE6\x96\x87"s /* 中文 */}) {
    EXPECT_EQ(mutf8::fromUtf8(s), s) << hex(Bytes(s.begin(), s.end()));
    EXPECT_EQ(mutf8::toUtf8(s), s);
  }
}

TEST(Mutf8Test, SupplementaryCharactersBecomeSurrogatePairs) {
  struct Case {
    std::string utf8, mutf8;
  };
  const Case cases[] = {
      {"\xF0\x90\x80\x80", "\xED\xA0\x80\xED\xB0\x80"},  // U+10000: D800 DC00
      {"\xF0\x9F\x98\x80", "\xED\xA0\xBD\xED\xB8\x80"},  // U+1F600: D83D DE00
      {"\xF4\x8F\xBF\xBF", "\xED\xAF\xBF\xED\xBF\xBF"},  // U+10FFFF: DBFF DFFF
  };
  for (const Case& c : cases) {
    EXPECT_EQ(mutf8::fromUtf8(c.utf8), c.mutf8);
    EXPECT_EQ(mutf8::toUtf8(c.mutf8), c.utf8);
    EXPECT_EQ(mutf8::firstInvalid(c.mutf8), std::nullopt);
  }
  EXPECT_EQ(mutf8::fromUtf8("x\xF0\x9F\x98\x80y\0"s), "x\xED\xA0\xBD\xED\xB8\x80y\xC0\x80");
}

// toUtf8's output is always well-formed UTF-8 (a report's JSON must never fail on it): one
// U+FFFD (EF BF BD) per ill-formed sequence.
TEST(Mutf8Test, ToUtf8ReplacesLoneSurrogatesAndIllFormedSequences) {
  const std::string r = "\xEF\xBF\xBD";
  EXPECT_EQ(mutf8::toUtf8("\xED\xA0\x80"), r);                  // lone high
  EXPECT_EQ(mutf8::toUtf8("\xED\xB0\x80x"), r + "x");           // lone low
  EXPECT_EQ(mutf8::toUtf8("\xED\xA0\x80x"), r + "x");           // high, then no low
  EXPECT_EQ(mutf8::toUtf8("\xED\xA0\x80\xED\xA0\x80"), r + r);  // two highs
  EXPECT_EQ(mutf8::toUtf8("x\xFFy"), "x" + r + "y");
  EXPECT_EQ(mutf8::toUtf8("\x80\x80"), r + r);                   // stray: one each
  EXPECT_EQ(mutf8::toUtf8("\xE2\x82x"), r + "x");                // cut short: one
  EXPECT_EQ(mutf8::toUtf8("\xE2"), r);
  EXPECT_EQ(mutf8::toUtf8("x\xC0\xAFy"), "x" + r + "y");         // an overlong '/'
  EXPECT_EQ(mutf8::toUtf8("\xF4\x90\x80\x80"), r);              // past U+10FFFF
  // Standard UTF-8's 4-byte form (text from outside class files) is kept.
  EXPECT_EQ(mutf8::toUtf8("x\xF0\x9D\x94\x98"), "x\xF0\x9D\x94\x98");
}

TEST(Mutf8Test, ToUtf8WritesNulAsAsked) {
  EXPECT_EQ(mutf8::toUtf8("x\xC0\x80y", "\xE2\x90\x80"), "x\xE2\x90\x80y");
  EXPECT_EQ(mutf8::toUtf8("x\0y"s, "\xE2\x90\x80"), "x\xE2\x90\x80y");
}

TEST(Mutf8Test, InvalidUtf8InputBecomesReplacementCharacter) {
  EXPECT_EQ(mutf8::fromUtf8("a\xFF" "b"), "a\xEF\xBF\xBD" "b");
  EXPECT_EQ(mutf8::fromUtf8("\x80"), "\xEF\xBF\xBD");
  EXPECT_EQ(mutf8::fromUtf8("\xE2\x82"), "\xEF\xBF\xBD");  // cut short: one for both bytes
  EXPECT_EQ(mutf8::firstInvalid(mutf8::fromUtf8("\xC3(\xF8\xFF")), std::nullopt);
}

// Regression (found by this test; fixed in 852efc8): fromUtf8 documents "invalid input
// bytes are encoded as U+FFFD", but decoded overlong forms (an overlong '/' became a real
// '/', an overlong NUL C0 80) and turned sequences above U+10FFFF (F4 90.., F5-F7 leads)
// into unrelated surrogate pairs (F4 90 80 80 -> ED B0 80 ED B0 80).
TEST(Mutf8Test, FromUtf8ReplacesEveryInvalidSequence) {
  const std::string cases[] = {"a\xC0\xAF" "b",        "a\xE0\x80\xAF" "b", "a\xF0\x80\x80\xAF" "b",
                               "\xE0\x80\x80",         "\xF0\x80\x80\x80", "\xF4\x90\x80\x80",
                               "\xF7\xBF\xBF\xBF",    "\xED\xA0\x80" /* surrogate */};
  for (const std::string& bad : cases) {
    SCOPED_TRACE(hex(Bytes(bad.begin(), bad.end())));
    std::string m = mutf8::fromUtf8(bad);
    EXPECT_NE(m.find("\xEF\xBF\xBD"), std::string::npos) << hex(Bytes(m.begin(), m.end()));
    EXPECT_EQ(m.find('/'), std::string::npos) << "overlong '/' decoded";
    EXPECT_EQ(m.find("\xC0\x80"), std::string::npos) << "overlong NUL decoded";
    EXPECT_EQ(m.find('\xED'), std::string::npos) << "surrogates made up";
  }
}

TEST(Mutf8Test, EveryCodePointRoundTrips) {
  // Every code point except surrogates, in steps that hit each encoding length's bounds.
  for (uint32_t cp = 1; cp <= 0x10FFFF; cp += (cp < 0x1000 ? 1 : 97)) {
    if (cp >= 0xD800 && cp <= 0xDFFF) continue;
    std::string u;
    if (cp < 0x80) {
      u += static_cast<char>(cp);
    } else if (cp < 0x800) {
      u += static_cast<char>(0xC0 | cp >> 6);
      u += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      u += static_cast<char>(0xE0 | cp >> 12);
      u += static_cast<char>(0x80 | (cp >> 6 & 0x3F));
      u += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
      u += static_cast<char>(0xF0 | cp >> 18);
      u += static_cast<char>(0x80 | (cp >> 12 & 0x3F));
      u += static_cast<char>(0x80 | (cp >> 6 & 0x3F));
      u += static_cast<char>(0x80 | (cp & 0x3F));
    }
    std::string m = mutf8::fromUtf8(u);
    ASSERT_EQ(m.size(), cp < 0x80 ? 1u : cp < 0x800 ? 2u : cp < 0x10000 ? 3u : 6u) << cp;
    ASSERT_EQ(mutf8::firstInvalid(m), std::nullopt) << cp;
    ASSERT_EQ(mutf8::toUtf8(m), u) << cp;
  }
}

TEST(Mutf8Test, FirstInvalidAcceptsLegalInput) {
  EXPECT_EQ(mutf8::firstInvalid(""), std::nullopt);
  EXPECT_EQ(mutf8::firstInvalid("Ljava/lang/String;"), std::nullopt);
  EXPECT_EQ(mutf8::firstInvalid("\xC0\x80"), std::nullopt);      // NUL
  EXPECT_EQ(mutf8::firstInvalid("\xC2\x80\xDF\xBF"), std::nullopt);
  EXPECT_EQ(mutf8::firstInvalid("\xE0\xA0\x80\xEF\xBF\xBF"), std::nullopt);
  EXPECT_EQ(mutf8::firstInvalid("\xED\xA0\x80"), std::nullopt);  // surrogate (legal here)
}

TEST(Mutf8Test, FirstInvalidFindsTheBadByte) {
  struct Case {
    std::string bytes;
    size_t at;
    const char* why;
  };
  const Case cases[] = {
      {"\0"s, 0, "a 0x00 byte"},
      {"ab\0c"s, 2, "a 0x00 byte after text"},
      {"\x80", 0, "stray continuation"},
      {"ab\xBF", 2, "stray continuation after text"},
      {"\xC3", 0, "truncated 2-byte"},
      {"a\xE2\x82", 1, "truncated 3-byte"},
      {"a\xE2", 1, "truncated 3-byte, lead only"},
      {"\xC3\x41", 0, "2-byte with a non-continuation"},
      {"\xE2\x41\x82", 0, "3-byte, bad second byte"},
      {"\xE2\x82\x41", 0, "3-byte, bad third byte"},
      {"\xF0\x9F\x98\x80", 0, "4-byte form"},
      {"ok\xF4\x8F\xBF\xBF", 2, "4-byte form after text"},
      {"\xF8\x80\x80\x80\x80", 0, "5-byte lead"},
      {"\xFF", 0, "0xFF"},
      {"\xC0\x81", 0, "overlong U+0001"},
      {"\xC1\xBF", 0, "overlong U+007F"},
      {"\xC0\xAF", 0, "overlong '/'"},
      {"\xE0\x80\x80", 0, "overlong 3-byte NUL"},
      {"\xE0\x9F\xBF", 0, "overlong U+07FF"},
      {"abc\xE0\x81\x81", 3, "overlong 3-byte after text"},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(mutf8::firstInvalid(c.bytes), std::optional<size_t>(c.at)) << c.why;
  }
}

// Plain ASCII is skipped eight bytes at a time: a bad byte must still be reported at its
// exact offset wherever it falls relative to those words, also after valid multi-byte text.
TEST(Mutf8Test, FirstInvalidIsExactInLongText) {
  for (size_t len = 1; len <= 40; ++len) {
    for (size_t pos = 0; pos < len; ++pos) {
      for (char bad : {'\0', '\x80', '\xF0', '\xFF'}) {
        std::string s(len, 'a');
        s[pos] = bad;
        EXPECT_EQ(mutf8::firstInvalid(s), std::optional<size_t>(pos)) << len << " " << pos;
      }
      std::string ok(len, 'b');
      EXPECT_EQ(mutf8::firstInvalid(ok), std::nullopt) << len;
    }
  }
  std::string mixed = "abcdefghij\xC3\xA9klmnopqrstuvwxyz\xE2\x82\xAC" "abcdefgh";
  EXPECT_EQ(mutf8::firstInvalid(mixed), std::nullopt);
  EXPECT_EQ(mutf8::firstInvalid(mixed + "12345678\xC3"), std::optional<size_t>(mixed.size() + 8));
  EXPECT_EQ(mutf8::firstInvalid(mixed + "1234567\x7F\0"s), std::optional<size_t>(mixed.size() + 8));
}

TEST(Mutf8Test, OverlongFormsAreAcceptedWhenNotRejected) {
  EXPECT_EQ(mutf8::firstInvalid("\xC0\x81", false), std::nullopt);
  EXPECT_EQ(mutf8::firstInvalid("\xE0\x80\x80", false), std::nullopt);
  EXPECT_EQ(mutf8::firstInvalid("\xC1\xBF", false), std::nullopt);
  // Structural errors are still errors.
  EXPECT_EQ(mutf8::firstInvalid("\0"s, false), std::optional<size_t>(0));
  EXPECT_EQ(mutf8::firstInvalid("\xF0\x9F\x98\x80", false), std::optional<size_t>(0));
  EXPECT_EQ(mutf8::firstInvalid("a\x80", false), std::optional<size_t>(1));
  EXPECT_EQ(mutf8::firstInvalid("\xC3", false), std::optional<size_t>(0));
}

// ---- in class files ------------------------------------------------------------------------

Bytes classWithUtf8(uint16_t major, const std::string& text, uint16_t* index, size_t* at) {
  ClassBuilder b("T", major);
  b.addCodeMethod("m", B({0xB1}));
  *index = b.pool.utf8(text);
  *at = b.pool.entryOffset(*index);
  return b.build();
}

TEST(Mutf8ClassTest, IllegalUtf8ConstantIsRejectedAtTheBadByte) {
  for (std::string bad : {"ab\xF0\x9F\x98\x80"s, "ab\0"s, "ab\x80"s, "ab\xE2\x82"s}) {
    uint16_t index;
    size_t at;
    Bytes bytes = classWithUtf8(52, bad, &index, &at);
    cf::Error e = parseError(bytes);
    EXPECT_EQ(e.cpIndex, index);
    // tag (1) + length (2) + the bad byte's position in the string
    EXPECT_EQ(e.offset, at + 3 + 2) << e.toString();
    EXPECT_NE(e.toString().find("illegal modified UTF-8"), std::string::npos) << e.toString();
  }
}

TEST(Mutf8ClassTest, OverlongFormsAreLegalBeforeVersion48) {
  const std::string overlong = "x\xC1\x81";  // overlong 'A'
  uint16_t index;
  size_t at;
  Bytes v47 = classWithUtf8(47, overlong, &index, &at);
  cf::ClassFile c = parseOk(v47);
  EXPECT_EQ(c.pool.utf8(cf::CpIndex{index}), overlong);
  EXPECT_TRUE(RoundTrips(v47));

  Bytes v48 = classWithUtf8(48, overlong, &index, &at);
  cf::Error e = parseError(v48);
  EXPECT_EQ(e.cpIndex, index);
  EXPECT_EQ(e.offset, at + 3 + 1);
}

TEST(Mutf8ClassTest, NulAndSupplementaryConstantsRoundTrip) {
  const std::string text = mutf8::fromUtf8("n\0l \xF0\x9F\x98\x80 \xC3\xA9"s);
  uint16_t index;
  size_t at;
  Bytes bytes = classWithUtf8(61, text, &index, &at);
  cf::ClassFile c = parseOk(bytes);
  EXPECT_EQ(c.pool.utf8(cf::CpIndex{index}), text);
  EXPECT_EQ(mutf8::toUtf8(c.pool.utf8(cf::CpIndex{index})), "n\0l \xF0\x9F\x98\x80 \xC3\xA9"s);
  EXPECT_TRUE(RoundTrips(bytes));
  // The same text added through the API is found, not duplicated.
  EXPECT_EQ(c.pool.addUtf8(text), cf::CpIndex{index});
}

}  // namespace
}  // namespace dragnet::test
