#include "report/normal_names.h"

#include <algorithm>
#include <iterator>
#include <regex>
#include <utility>

namespace dragnet::report {
namespace {

// (pattern, replacement) applied in order. Each pattern needs a marker no ordinary Java
// name has at that place (an identifier never starts with a digit, "$$Lambda" and
// "$Proxy" are the JDK's own), so a name without run-dependent parts comes back unchanged.
const std::pair<std::regex, const char*>* rules(size_t& count) {
  static const std::pair<std::regex, const char*> kRules[] = {
      // A hidden class's address after its name: '/' (Class.getName), '.' (the JVMTI
      // signature in Java spelling) or '+' (the signature in JDK 17 and later).
      {std::regex(R"(([\w$])[/.+]0x[0-9a-fA-F]+\b)"), "$1"},
      // A lambda proxy's number (JDK 8 to 20), with JDK 8's "/<identity hash>".
      {std::regex(R"(\$\$Lambda\$\d+(/\d+)?)"), "$$$$Lambda"},
      // A java.lang.reflect.Proxy class and the dynamic module it is defined in.
      {std::regex(R"(\$Proxy\d+)"), "$$Proxy"},
      {std::regex(R"(\bjdk([./])proxy\d+\b)"), "jdk$1proxy"},
      // Reflection's generated accessors (JDK 17: jdk.internal.reflect).
      {std::regex(R"(\b(Generated(Serialization)?(Method|Constructor)Accessor)\d+)"), "$1"},
      // Code generators' counters and hashes.
      {std::regex(R"(\$\$((EnhancerBy|FastClassBy)(Spring)?CGLIB)\$\$[0-9a-fA-F]+)"), "$$$$$1"},
      {std::regex(R"(\$\$SpringCGLIB\$\$\d+)"), "$$$$SpringCGLIB"},
      {std::regex(R"(\$(ByteBuddy|MockitoMock|HibernateProxy)\$\w+)"), "$$$1"},
      {std::regex(R"(_\$\$_jvst[0-9a-fA-F]+_[0-9a-fA-F]+)"), "_$$$$_jvst"},
  };
  count = std::size(kRules);
  return kRules;
}

}  // namespace

std::string normalName(std::string_view name) {
  // Most names have none of the rules' markers: skip the regular expressions for them.
  static constexpr std::string_view kMarkers[] = {
      "0x",       "$$",          "$Proxy",        "proxy",
      "Accessor", "$ByteBuddy$", "$MockitoMock$", "$HibernateProxy$"};
  if (std::none_of(std::begin(kMarkers), std::end(kMarkers),
                   [&](std::string_view m) { return name.find(m) != std::string_view::npos; })) {
    return std::string(name);
  }
  size_t count = 0;
  const auto* r = rules(count);
  std::string out(name);
  for (size_t i = 0; i < count; ++i) out = std::regex_replace(out, r[i].first, r[i].second);
  return out;
}

}  // namespace dragnet::report
