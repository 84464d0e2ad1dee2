#include "flow/tag_field.h"

#include "classfile/class_file.h"

namespace dragnet::flow {

bool isDeniedTagClass(std::string_view n) {
  return n == "java/lang/Object" || n.starts_with("java/lang/") || n.starts_with("jdk/internal/") ||
         n.starts_with("sun/");
}

bool addTagField(classfile::ClassFile& cls) {
  if ((cls.access & 0x0200) != 0 || isDeniedTagClass(cls.name())) return false;
  if (cls.superClass == classfile::CpIndex{}) return false;  // module-info
  if (!isDeniedTagClass(cls.pool.className(cls.superClass))) return false;
  classfile::Member f;
  f.access = 0x0001 | 0x0080 | 0x1000;  // public transient synthetic
  f.name = cls.pool.addUtf8(kTagField);
  f.descriptor = cls.pool.addUtf8("I");
  cls.fields.push_back(std::move(f));
  return true;
}

}  // namespace dragnet::flow
