// Modified UTF-8 (JVMS 4.4.7): NUL is encoded as C0 80, supplementary characters as
// two 3-byte surrogates, and no 4-byte forms exist.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace dragnet::classfile::mutf8 {

// Returns the offset of the first invalid byte, or nullopt if `bytes` is legal modified
// UTF-8 (the check HotSpot applies to every Utf8 constant). Like HotSpot, overlong forms
// other than C0 80 are rejected only for class files of version 48 and later.
std::optional<size_t> firstInvalid(std::string_view bytes, bool rejectOverlong = true);

// Modified UTF-8 -> standard UTF-8 (surrogate pairs joined, C0 80 -> NUL). Input must be
// valid; lone surrogates are kept as their 3-byte form (CESU-style), never dropped.
std::string toUtf8(std::string_view mutf8);

// Standard UTF-8 -> modified UTF-8. Invalid input bytes are encoded as U+FFFD.
std::string fromUtf8(std::string_view utf8);

// True if every byte is 0x01..0x7F, in which case both encodings are identical.
bool isPlainAscii(std::string_view bytes);

}  // namespace dragnet::classfile::mutf8
