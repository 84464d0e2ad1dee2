#include "classfile/opcodes.h"

namespace dragnet::classfile {

bool isWidenable(Op op) {
  Format f = opInfo(op).format;
  return f == Format::Local || f == Format::Iinc;
}

}  // namespace dragnet::classfile
