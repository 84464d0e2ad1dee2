#include "profile/text.h"

#include "classfile/mutf8.h"

namespace dragnet::profile {

std::string readableText(std::string_view bytes) {
  // A Java name may hold NUL (C0 80 in a class file: javac cannot write one, bytecode
  // generators can). As a 0 byte it would end the name in every C string on its way (the
  // SQLite shell's columns, pprof viewers, a terminal), and JSON would show it only as an
  // escape. U+2400 is one visible character that cannot be confused with the name's others:
  // no Java source can spell it in an identifier (it is a symbol, not a letter or digit).
  return classfile::mutf8::toUtf8(bytes, kNulShown);
}

}  // namespace dragnet::profile
