// dragnet's version: CMake's project version, given to every target that links
// dragnet_version (src/common/CMakeLists.txt) as DRAGNET_VERSION.
#pragma once

#include <string_view>

#ifndef DRAGNET_VERSION
#error "link dragnet_version: it defines DRAGNET_VERSION"
#endif

namespace dragnet {

inline constexpr std::string_view kVersion = DRAGNET_VERSION;

}  // namespace dragnet
