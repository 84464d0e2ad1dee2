#include "classfile/error.h"

namespace dragnet::classfile {

std::string Error::toString() const {
  std::string s = className.empty() ? std::string("<class>") : className;
  if (offset) s += ": offset " + std::to_string(*offset);
  if (cpIndex) s += ": constant pool #" + std::to_string(*cpIndex);
  s += ": ";
  s += message;
  return s;
}

void fail(std::optional<size_t> offset, std::string message, std::optional<uint16_t> cpIndex) {
  throw ParseFailure(Error{{}, offset, cpIndex, std::move(message)});
}

}  // namespace dragnet::classfile
