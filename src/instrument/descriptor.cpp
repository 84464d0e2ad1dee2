#include "instrument/descriptor.h"

namespace dragnet::instrument {

size_t fieldDescriptorLength(std::string_view d, size_t pos, bool allowVoid) {
  size_t start = pos;
  // The JVM limits array dimensions to 255.
  while (pos < d.size() && d[pos] == '[') {
    if (++pos - start > 255) return 0;
  }
  if (pos >= d.size()) return 0;
  switch (d[pos]) {
    case 'B':
    case 'C':
    case 'D':
    case 'F':
    case 'I':
    case 'J':
    case 'S':
    case 'Z':
      return pos + 1 - start;
    case 'V':
      return allowVoid && pos == start ? 1 : 0;
    case 'L': {
      size_t semi = d.find(';', pos);
      if (semi == std::string_view::npos || semi == pos + 1) return 0;
      return semi + 1 - start;
    }
    default:
      return 0;
  }
}

int MethodDescriptor::argumentSlots() const {
  int n = 0;
  for (std::string_view p : params) n += slotSize(p);
  return n;
}

std::optional<MethodDescriptor> parseMethodDescriptor(std::string_view d) {
  if (d.empty() || d[0] != '(') return std::nullopt;
  MethodDescriptor m;
  size_t pos = 1;
  while (pos < d.size() && d[pos] != ')') {
    size_t len = fieldDescriptorLength(d, pos);
    if (len == 0) return std::nullopt;
    m.params.push_back(d.substr(pos, len));
    pos += len;
  }
  if (pos >= d.size()) return std::nullopt;
  ++pos;
  size_t len = fieldDescriptorLength(d, pos, /*allowVoid=*/true);
  if (len == 0 || pos + len != d.size()) return std::nullopt;
  m.ret = d.substr(pos, len);
  return m;
}

SlotCounts methodSlots(std::string_view d) {
  if (d.empty() || d[0] != '(') return {};
  size_t pos = 1;
  int args = 0;
  while (pos < d.size() && d[pos] != ')') {
    size_t len = fieldDescriptorLength(d, pos);
    if (len == 0) return {};
    args += slotSize(d.substr(pos, len));
    pos += len;
  }
  if (pos >= d.size()) return {};
  ++pos;
  size_t len = fieldDescriptorLength(d, pos, /*allowVoid=*/true);
  if (len == 0 || pos + len != d.size()) return {};
  return {args, slotSize(d.substr(pos, len))};
}

std::string_view classNameOf(std::string_view d) {
  if (d.size() >= 2 && d[0] == 'L' && d.back() == ';') return d.substr(1, d.size() - 2);
  return d;
}

}  // namespace dragnet::instrument
