#include "flow/heap_shadows.h"

#include <array>
#include <vector>

#include "flow/tag_field.h"

namespace dragnet::flow {

namespace cf = classfile;

std::string shadowFieldName(std::string_view name, std::string_view descriptor) {
  std::string out(kHiddenFieldPrefix);
  out += name;
  out += '$';
  for (char c : descriptor) out += (c == '/' || c == ';' || c == '[' || c == '.') ? '_' : c;
  return out;
}

size_t addShadowFields(cf::ClassFile& cls) {
  constexpr uint16_t kAccInterface = 0x0200;
  if ((cls.access & kAccInterface) != 0 || isDeniedTagClass(cls.name())) return 0;
  std::vector<std::string> names;
  for (const cf::Member& f : cls.fields) {
    std::string_view name = cls.memberName(f);
    if ((f.access & cf::kAccStatic) != 0 || name.starts_with(kHiddenFieldPrefix)) continue;
    names.push_back(shadowFieldName(name, cls.memberDescriptor(f)));
  }
  for (const std::string& n : names) {
    cf::Member f;
    f.access = kShadowFieldAccess;
    f.name = cls.pool.addUtf8(n);
    f.descriptor = cls.pool.addUtf8("I");
    cls.fields.push_back(std::move(f));
  }
  return names.size();
}

bool hasShadowField(std::string_view owner, std::string_view name) {
  if (owner.starts_with("[") || isDeniedTagClass(owner)) return false;
  // Reference's fields, named through a subclass (code of java.lang.ref itself).
  constexpr std::array<std::string_view, 4> kReferenceFields{"referent", "queue", "next",
                                                             "discovered"};
  if (owner.starts_with("java/lang/ref/")) {
    for (std::string_view f : kReferenceFields) {
      if (name == f) return false;
    }
  }
  return true;
}

}  // namespace dragnet::flow
