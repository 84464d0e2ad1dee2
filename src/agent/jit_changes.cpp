#include "agent/jit_changes.h"

#include <functional>
#include <set>

namespace dragnet::agent {

const std::vector<DisabledIntrinsic>& disabledIntrinsics() {
  // Every @IntrinsicCandidate method of JDK 17 and 25 whose body reaches an allocation
  // other than a failure path's exception (compiled code leaves failures to the
  // interpreter, which runs the body). Every id exists in JDK 17 to 25: HotSpot refuses
  // to start on an unknown one.
  static const std::vector<DisabledIntrinsic> list{
      {"_copyOf", "java/util/Arrays", "copyOf", "the copy (ArrayList growth, toArray)"},
      {"_copyOfRange", "java/util/Arrays", "copyOfRange", "the copy"},
      {"_allocateUninitializedArray", "jdk/internal/misc/Unsafe", "allocateUninitializedArray0",
       "the array (indy string concatenation)"},
      {"_toBytesStringU", "java/lang/StringUTF16", "toBytes", "a UTF-16 String's byte[]"},
      {"_multiplyToLen", "java/math/BigInteger", "implMultiplyToLen",
       "the product's int[] (JDK 17)"},
      {"_montgomeryMultiply", "java/math/BigInteger", "implMontgomeryMultiply",
       "a product's int[]"},
      {"_montgomerySquare", "java/math/BigInteger", "implMontgomerySquare", "a square's int[]"},
      {"_sha_implCompress", "sun/security/provider/SHA", "implCompress0", "SHA-1's work array"},
      {"_sha2_implCompress", "sun/security/provider/SHA2", "implCompress0",
       "SHA-224/256's work array"},
      {"_sha5_implCompress", "sun/security/provider/SHA5", "implCompress0",
       "SHA-384/512's work array"},
      {"_digestBase_implCompressMB", "sun/security/provider/DigestBase", "implCompressMultiBlock0",
       "a SHA digest's work array (calls the three above)"},
  };
  return list;
}

const std::vector<DisabledTransformation>& disabledTransformations() {
  static const std::vector<DisabledTransformation> list{
      {"OptimizeStringConcat",
       "C2 fuses StringBuilder/StringBuffer chains into one allocation",
       {"java/lang/StringBuilder.", "java/lang/StringBuffer.", "java/lang/Integer.toString",
        "java/lang/String.<init>"}},
      {"EliminateAutoBox",
       "C2 drops valueOf calls whose box is not used",
       {"java/lang/Boolean.valueOf", "java/lang/Byte.valueOf", "java/lang/Character.valueOf",
        "java/lang/Short.valueOf", "java/lang/Integer.valueOf", "java/lang/Long.valueOf",
        "java/lang/Float.valueOf", "java/lang/Double.valueOf"}},
      {"EnableVectorSupport",
       "the Vector API's intrinsics allocate boxes only where they escape",
       {"jdk/internal/vm/vector/"}},
  };
  return list;
}

std::string disabledIntrinsicList() {
  std::string out;
  for (const DisabledIntrinsic& d : disabledIntrinsics()) {
    if (!out.empty()) out += ',';
    out += d.id;
  }
  return out;
}

std::string mergeIntrinsicList(std::string_view current, std::string_view ours) {
  std::string out(current);
  std::set<std::string, std::less<>> have;
  auto each = [](std::string_view list, auto&& f) {
    while (!list.empty()) {
      size_t comma = list.find(',');
      std::string_view item = list.substr(0, comma);
      if (!item.empty()) f(item);
      if (comma == std::string_view::npos) break;
      list.remove_prefix(comma + 1);
    }
  };
  each(current, [&](std::string_view s) { have.emplace(s); });
  each(ours, [&](std::string_view s) {
    if (!have.emplace(s).second) return;
    if (!out.empty()) out += ',';
    out += s;
  });
  return out;
}

}  // namespace dragnet::agent
