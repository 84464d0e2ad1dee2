// The text of a profile's strings. The file holds them as the JVM gives them: modified UTF-8
// (format.h), and the agent's own text (options, paths) as the platform's bytes. The reader
// turns each into well-formed UTF-8 once, as it reads it (Decoder::str), so that every
// report format prints a name as itself and none has to re-encode or can fail on one.
#pragma once

#include <string>
#include <string_view>

namespace dragnet::profile {

// How a NUL character in a name is shown: U+2400 SYMBOL FOR NULL ("␀").
inline constexpr std::string_view kNulShown = "\u2400";

// `bytes` (modified UTF-8, or standard UTF-8) as well-formed UTF-8: supplementary characters
// joined from their surrogate pairs, NUL as kNulShown, each ill-formed sequence as U+FFFD.
std::string readableText(std::string_view bytes);

}  // namespace dragnet::profile
