// Internal: one description of each structure drives both reading and writing.
//
// An attribute's layout is written once as `template <class S, class A> void io(S&, A&)`;
// S is In (parsing: fields are filled, pool references and labels are checked) or Out
// (writing). This keeps reader and writer from drifting apart, which is what makes the
// round trip byte-identical by construction rather than by care.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "classfile/attributes.h"
#include "classfile/bytes.h"
#include "classfile/constant_pool.h"
#include "classfile/scratch.h"

namespace dragnet::classfile::detail {

inline constexpr uint32_t kNoIndex = 0xFFFFFFFF;

// Offset <-> label translation for the attributes nested in one Code attribute.
struct CodeLabels {
  const Code* code = nullptr;
  // Scratch tables, reused from one method to the next: growing them leaves the new
  // elements unset (UninitAllocator), since every user writes them before reading them.
  UninitVector<uint32_t> offsets;  // instruction index -> offset; size insns + 1
  // Reading only: the Code being read, and offset -> instruction index (kNoIndex inside an
  // instruction), of size code_length + 1.
  Code* mutableCode = nullptr;
  UninitVector<uint32_t> insnAt;

  // Reading: the label at `offset`; it must be an instruction boundary (or the end, when
  // allowed). `errAt` is the file offset reported on failure. The reader binds label k to
  // parsed instruction k (and label n to the end), so a label is its instruction's index:
  // one lookup, nothing created, the same label for every reference to an offset. Inline:
  // every code offset read goes through here; the failure path is out of line.
  Label labelFor(uint32_t offset, size_t errAt, bool allowEnd = false) const {
    auto length = static_cast<uint32_t>(insnAt.size() - 1);
    if (offset > length || (offset == length && !allowEnd) || insnAt[offset] == kNoIndex)
        [[unlikely]] {
      failLabel(offset, errAt);
    }
    return static_cast<Label>(insnAt[offset]);
  }
  [[noreturn]] [[gnu::noinline, gnu::cold]] void failLabel(uint32_t offset, size_t errAt) const;
  // Labels of an edited model are checked here: an unknown label id or a position past the
  // end fails the write instead of reading out of bounds.
  uint32_t offsetOf(Label l) const {
    auto id = static_cast<uint32_t>(l);
    if (id >= code->labels.size() || code->labels[id] >= offsets.size()) {
      fail(std::nullopt, "label " + std::to_string(id) + " is not bound to an instruction");
    }
    return offsets[code->labels[id]];
  }
};

struct Context {
  const ConstantPool* pool = nullptr;
  uint16_t major = 0;
  uint16_t minor = 0;
  CodeLabels* labels = nullptr;  // set while inside a Code attribute
  int depth = 0;                 // nesting depth of annotations, to bound recursion
  // Attribute-name lookups (attribute_io.cpp), by pool index and place: every method names
  // Code, LineNumberTable, ... through the same few pool entries, and comparing the name
  // with each known attribute's cost more than reading a small table. key 0: empty slot.
  struct KindMemo {
    uint32_t key = 0;  // (pool index << 3 | place) + 1
    uint8_t kind = 0;  // the attribute kind's index + 1, 0 for none (kept raw)
  };
  std::array<KindMemo, 16> kindMemo{};
};

class In {
 public:
  static constexpr bool kReading = true;
  In(Reader& r, Context& ctx) : r(r), ctx(ctx) {}

  std::optional<size_t> at() const { return r.offset(); }
  void u1(uint8_t& v) { v = r.u1(); }
  void u1(uint16_t& v) { v = r.u1(); }  // a u1 kept in a wider field
  void u2(uint16_t& v) { v = r.u2(); }
  void cp(CpIndex& v, TagSet allowed) {
    size_t at = r.offset();
    v = CpIndex{r.u2()};
    ctx.pool->check(v, allowed, at);
  }
  // A pool index that may be 0.
  void cpOrZero(CpIndex& v, TagSet allowed) {
    size_t at = r.offset();
    v = CpIndex{r.u2()};
    if (v != CpIndex::None) ctx.pool->check(v, allowed, at);
  }
  void label(Label& l) {
    size_t at = r.offset();
    l = needLabels(at).labelFor(r.u2(), at);
  }
  // A u2 length that, added to `start`'s offset, gives `end` (may be the code end).
  void length(Label start, Label& end) {
    size_t at = r.offset();
    CodeLabels& cl = needLabels(at);
    end = cl.labelFor(cl.offsetOf(start) + r.u2(), at, /*allowEnd=*/true);
  }
  // A counted list: count in `countBytes` (1 or 2) bytes; each element at least `minSize`
  // bytes, so the allocation is bounded by the input before it happens.
  template <class V, class F>
  void list(V& v, int countBytes, size_t minSize, F&& each) {
    size_t n = countBytes == 1 ? r.u1() : r.u2();
    r.needArray(n, minSize);
    // Elements are added as they are read, not all up front: nested lists (annotation
    // element values, 128 deep) would otherwise each allocate their full count before any
    // element is read, and a few KB of input could claim hundreds of MB.
    reuse(v);  // a pooled buffer for a PooledVector
    v.reserve(n < 64 ? n : 64);
    for (size_t i = 0; i < n; ++i) each(v.emplace_back());
  }
  void cpList(std::vector<CpIndex>& v, TagSet allowed) {
    list(v, 2, 2, [&](CpIndex& e) { cp(e, allowed); });
  }

  Reader& r;
  Context& ctx;

 private:
  CodeLabels& needLabels(size_t at) {
    if (!ctx.labels) fail(at, "code offset outside of a Code attribute");
    return *ctx.labels;
  }
};

class Out {
 public:
  static constexpr bool kReading = false;
  Out(Writer& w, Context& ctx) : w(w), ctx(ctx) {}

  std::optional<size_t> at() const { return std::nullopt; }
  void u1(uint8_t v) { w.u1(v); }
  void u1(uint16_t v) { w.u1(static_cast<uint8_t>(v)); }
  void u2(uint16_t v) { w.u2(v); }
  void cp(CpIndex v, TagSet) { w.u2(raw(v)); }
  void cpOrZero(CpIndex v, TagSet) { w.u2(raw(v)); }
  void label(Label l) { w.u2(static_cast<uint16_t>(ctx.labels->offsetOf(l))); }
  void length(Label start, Label end) {
    w.u2(static_cast<uint16_t>(ctx.labels->offsetOf(end) - ctx.labels->offsetOf(start)));
  }
  template <class T, class F>
  void list(const std::vector<T>& v, int countBytes, size_t, F&& each) {
    count(v.size(), countBytes);
    for (auto& e : v) each(e);
  }
  // A table's element count in `countBytes` (1 or 2) bytes; a table too long for it fails.
  void count(size_t n, int countBytes) {
    size_t limit = countBytes == 1 ? 0xFF : 0xFFFF;
    if (n > limit) {
      fail(std::nullopt, "table of " + std::to_string(n) + " entries exceeds its " +
                             std::to_string(countBytes * 8) + "-bit count");
    }
    if (countBytes == 1) {
      w.u1(static_cast<uint8_t>(n));
    } else {
      w.u2(static_cast<uint16_t>(n));
    }
  }
  void cpList(const std::vector<CpIndex>& v, TagSet) {
    list(v, 2, 2, [&](CpIndex e) { w.u2(raw(e)); });
  }

  Writer& w;
  Context& ctx;
};

// Attribute lists (class, field, method, Code, record component).
enum class Where : uint8_t { Class, Field, Method, Code, RecordComponent };
void readAttributes(Reader& r, Context& ctx, Where where, std::vector<Attribute>& out);
void writeAttributes(Writer& w, Context& ctx, const std::vector<Attribute>& attrs);

// The Code attribute (code_io.cpp).
void readCode(Reader& r, Context& ctx, CodeAttr& out);
void writeCode(Writer& w, Context& ctx, const CodeAttr& code);

}  // namespace dragnet::classfile::detail
