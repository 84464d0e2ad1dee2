// Internal: layouts of annotations and type annotations, shared by reading and writing.
#pragma once

#include "classfile/serial.h"

namespace dragnet::classfile::detail {

inline constexpr int kMaxAnnotationDepth = 128;

inline constexpr TagSet kUtf8Tag{Tag::Utf8};

template <class S, class A>
void ioAnnotation(S& s, A& a);

template <class S, class E>
void ioElementValue(S& s, E& e) {
  // Nested arrays and annotations recurse; bound the depth so hostile input cannot
  // exhaust the stack.
  if (++s.ctx.depth > kMaxAnnotationDepth) {
    fail(s.at(), "annotation values nested deeper than " + std::to_string(kMaxAnnotationDepth));
  }
  auto tagAt = s.at();
  s.u1(e.tag);
  switch (e.tag) {
    case 'B':
    case 'C':
    case 'I':
    case 'S':
    case 'Z':
      s.cp(e.a, {Tag::Integer});
      break;
    case 'D':
      s.cp(e.a, {Tag::Double});
      break;
    case 'F':
      s.cp(e.a, {Tag::Float});
      break;
    case 'J':
      s.cp(e.a, {Tag::Long});
      break;
    case 's':
    case 'c':
      s.cp(e.a, kUtf8Tag);
      break;
    case 'e':
      s.cp(e.a, kUtf8Tag);
      s.cp(e.b, kUtf8Tag);
      break;
    case '@':
      if constexpr (S::kReading) e.nested.resize(1);
      if (e.nested.size() != 1) fail(tagAt, "annotation element without its annotation");
      ioAnnotation(s, e.nested[0]);
      break;
    case '[':
      s.list(e.values, 2, 1, [&](auto& v) { ioElementValue(s, v); });
      break;
    default:
      fail(tagAt, "unknown element_value tag " + std::to_string(e.tag));
  }
  --s.ctx.depth;
}

template <class S, class A>
void ioAnnotation(S& s, A& a) {
  s.cp(a.type, kUtf8Tag);
  s.list(a.pairs, 2, 3, [&](auto& p) {
    s.cp(p.first, kUtf8Tag);
    ioElementValue(s, p.second);
  });
}

template <class S, class T>
void ioTypeAnnotation(S& s, T& t) {
  auto at = s.at();
  s.u1(t.targetType);
  switch (t.targetType) {
    case 0x00:
    case 0x01:
    case 0x16:
      s.u1(t.index);
      break;
    case 0x10:
    case 0x17:
    case 0x42:
      s.u2(t.index);
      break;
    case 0x11:
    case 0x12:
      s.u1(t.index);
      s.u1(t.index2);
      break;
    case 0x13:
    case 0x14:
    case 0x15:
      break;
    case 0x40:
    case 0x41:
      s.list(t.localVars, 2, 6, [&](auto& v) {
        s.label(v.start);
        s.length(v.start, v.end);
        s.u2(v.index);
      });
      break;
    case 0x43:
    case 0x44:
    case 0x45:
    case 0x46:
      s.label(t.offset);
      break;
    case 0x47:
    case 0x48:
    case 0x49:
    case 0x4A:
    case 0x4B:
      s.label(t.offset);
      s.u1(t.index2);
      break;
    default:
      fail(at, "unknown type-annotation target_type " + std::to_string(t.targetType));
  }
  s.list(t.path, 1, 2, [&](auto& p) {
    s.u1(p.first);
    s.u1(p.second);
  });
  ioAnnotation(s, t.annotation);
}

}  // namespace dragnet::classfile::detail
