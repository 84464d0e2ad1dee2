#include "class_builder.h"

#include <cstdio>
#include <fstream>
#include <iterator>
#include <sstream>

namespace dragnet::test {

// ---- ByteWriter ---------------------------------------------------------------------------

ByteWriter& ByteWriter::u1(uint32_t v) {
  out_.push_back(static_cast<uint8_t>(v));
  return *this;
}
ByteWriter& ByteWriter::u2(uint32_t v) { return u1(v >> 8).u1(v); }
ByteWriter& ByteWriter::u4(uint32_t v) { return u2(v >> 16).u2(v); }
ByteWriter& ByteWriter::u8(uint64_t v) {
  return u4(static_cast<uint32_t>(v >> 32)).u4(static_cast<uint32_t>(v));
}
ByteWriter& ByteWriter::bytes(const Bytes& b) {
  append(out_, b);
  return *this;
}
ByteWriter& ByteWriter::bytes(std::string_view s) {
  out_.insert(out_.end(), s.begin(), s.end());
  return *this;
}
void ByteWriter::patchU2(size_t at, uint32_t v) {
  out_.at(at) = static_cast<uint8_t>(v >> 8);
  out_.at(at + 1) = static_cast<uint8_t>(v);
}
void ByteWriter::patchU4(size_t at, uint32_t v) {
  patchU2(at, v >> 16);
  patchU2(at + 2, v);
}

// ---- PoolBuilder --------------------------------------------------------------------------

namespace {
Bytes be2(uint32_t v) { return B({static_cast<int>(v >> 8 & 0xFF), static_cast<int>(v & 0xFF)}); }
Bytes be4(uint32_t v) {
  Bytes b = be2(v >> 16);
  append(b, be2(v));
  return b;
}
Bytes cat(const Bytes& a, const Bytes& b) {
  Bytes r = a;
  append(r, b);
  return r;
}
}  // namespace

uint16_t PoolBuilder::raw(uint8_t tag, const Bytes& payload, int slots) {
  Entry e{next_, Bytes{tag}};
  append(e.bytes, payload);
  entries_.push_back(std::move(e));
  uint16_t index = next_;
  next_ = static_cast<uint16_t>(next_ + slots);
  return index;
}

uint16_t PoolBuilder::memo(const std::string& key, uint8_t tag, const Bytes& payload, int slots) {
  auto it = memo_.find(key);
  if (it != memo_.end()) return it->second;
  uint16_t index = raw(tag, payload, slots);
  memo_.emplace(key, index);
  return index;
}

uint16_t PoolBuilder::utf8(std::string_view s) {
  Bytes payload = be2(static_cast<uint32_t>(s.size()));
  payload.insert(payload.end(), s.begin(), s.end());
  return memo("1:" + std::string(s), 1, payload);
}
uint16_t PoolBuilder::integer(int32_t v) {
  return memo("3:" + std::to_string(v), 3, be4(static_cast<uint32_t>(v)));
}
uint16_t PoolBuilder::floatBits(uint32_t bits) {
  return memo("4:" + std::to_string(bits), 4, be4(bits));
}
uint16_t PoolBuilder::longValue(int64_t v) {
  auto u = static_cast<uint64_t>(v);
  return memo("5:" + std::to_string(v), 5,
              cat(be4(static_cast<uint32_t>(u >> 32)), be4(static_cast<uint32_t>(u))), 2);
}
uint16_t PoolBuilder::doubleBits(uint64_t bits) {
  return memo("6:" + std::to_string(bits), 6,
              cat(be4(static_cast<uint32_t>(bits >> 32)), be4(static_cast<uint32_t>(bits))), 2);
}
uint16_t PoolBuilder::cls(std::string_view name) {
  uint16_t n = utf8(name);
  return memo("7:" + std::to_string(n), 7, be2(n));
}
uint16_t PoolBuilder::string(std::string_view s) {
  uint16_t n = utf8(s);
  return memo("8:" + std::to_string(n), 8, be2(n));
}
uint16_t PoolBuilder::nameAndType(std::string_view name, std::string_view desc) {
  uint16_t n = utf8(name), d = utf8(desc);
  return memo("12:" + std::to_string(n) + "," + std::to_string(d), 12, cat(be2(n), be2(d)));
}
uint16_t PoolBuilder::fieldref(std::string_view o, std::string_view n, std::string_view d) {
  uint16_t c = cls(o), nt = nameAndType(n, d);
  return memo("9:" + std::to_string(c) + "," + std::to_string(nt), 9, cat(be2(c), be2(nt)));
}
uint16_t PoolBuilder::methodref(std::string_view o, std::string_view n, std::string_view d) {
  uint16_t c = cls(o), nt = nameAndType(n, d);
  return memo("10:" + std::to_string(c) + "," + std::to_string(nt), 10, cat(be2(c), be2(nt)));
}
uint16_t PoolBuilder::interfaceMethodref(std::string_view o, std::string_view n,
                                         std::string_view d) {
  uint16_t c = cls(o), nt = nameAndType(n, d);
  return memo("11:" + std::to_string(c) + "," + std::to_string(nt), 11, cat(be2(c), be2(nt)));
}
uint16_t PoolBuilder::methodHandle(uint8_t kind, uint16_t ref) {
  return memo("15:" + std::to_string(kind) + "," + std::to_string(ref), 15,
              cat(Bytes{kind}, be2(ref)));
}
uint16_t PoolBuilder::methodType(std::string_view desc) {
  uint16_t d = utf8(desc);
  return memo("16:" + std::to_string(d), 16, be2(d));
}
uint16_t PoolBuilder::dynamic(uint16_t bsm, std::string_view name, std::string_view desc) {
  uint16_t nt = nameAndType(name, desc);
  return memo("17:" + std::to_string(bsm) + "," + std::to_string(nt), 17, cat(be2(bsm), be2(nt)));
}
uint16_t PoolBuilder::invokeDynamic(uint16_t bsm, std::string_view name, std::string_view desc) {
  uint16_t nt = nameAndType(name, desc);
  return memo("18:" + std::to_string(bsm) + "," + std::to_string(nt), 18, cat(be2(bsm), be2(nt)));
}
uint16_t PoolBuilder::module(std::string_view name) {
  uint16_t n = utf8(name);
  return memo("19:" + std::to_string(n), 19, be2(n));
}
uint16_t PoolBuilder::package(std::string_view name) {
  uint16_t n = utf8(name);
  return memo("20:" + std::to_string(n), 20, be2(n));
}

size_t PoolBuilder::entryOffset(uint16_t index) const {
  size_t off = 10;  // magic, minor, major, constant_pool_count
  for (const Entry& e : entries_) {
    if (e.index == index) return off;
    off += e.bytes.size();
  }
  ADD_FAILURE() << "no pool entry #" << index;
  return 0;
}

void PoolBuilder::write(ByteWriter& w) const {
  for (const Entry& e : entries_) w.bytes(e.bytes);
}

// ---- ClassBuilder -------------------------------------------------------------------------

size_t Layout::mark(const std::string& m) const {
  auto it = marks.find(m);
  if (it == marks.end()) {
    ADD_FAILURE() << "no mark " << m;
    return 0;
  }
  return it->second;
}

ClassBuilder::ClassBuilder(std::string n, uint16_t maj, uint16_t min)
    : name(std::move(n)), major(maj), minor(min) {}

AttrSpec ClassBuilder::attr(std::string_view attrName, Bytes body, std::string mark) {
  AttrSpec a;
  a.name = pool.utf8(attrName);
  a.body = std::move(body);
  a.mark = std::move(mark);
  return a;
}

AttrSpec ClassBuilder::codeAttr(const Bytes& code, uint16_t maxStack, uint16_t maxLocals,
                                const std::vector<HandlerSpec>& handlers,
                                std::vector<AttrSpec> attrs, std::string mark,
                                std::optional<uint32_t> codeLength) {
  ByteWriter w;
  uint32_t length = codeLength.value_or(static_cast<uint32_t>(code.size()));
  if (oldCodeLayout()) {
    w.u1(maxStack).u1(maxLocals).u2(length);
  } else {
    w.u2(maxStack).u2(maxLocals).u4(length);
  }
  size_t header = w.size();
  w.bytes(code);
  w.u2(static_cast<uint32_t>(handlers.size()));
  for (const HandlerSpec& h : handlers) w.u2(h.start).u2(h.end).u2(h.handler).u2(h.catchType);
  AttrSpec a = attr("Code", w.take(), std::move(mark));
  a.nested = std::move(attrs);
  a.codeHeader = header;
  return a;
}

MemberSpec& ClassBuilder::addMethod(uint16_t acc, std::string_view methodName,
                                    std::string_view desc, std::vector<AttrSpec> attrs) {
  methods.push_back(MemberSpec{acc, pool.utf8(methodName), pool.utf8(desc), std::move(attrs)});
  return methods.back();
}

MemberSpec& ClassBuilder::addCodeMethod(std::string_view methodName, const Bytes& code,
                                        std::string_view desc, uint16_t maxStack,
                                        uint16_t maxLocals,
                                        const std::vector<HandlerSpec>& handlers,
                                        std::vector<AttrSpec> codeAttrs) {
  AttrSpec c = codeAttr(code, maxStack, maxLocals, handlers, std::move(codeAttrs),
                        std::string(methodName));
  return addMethod(0x0009, methodName, desc, {std::move(c)});
}

MemberSpec& ClassBuilder::addField(uint16_t acc, std::string_view fieldName,
                                   std::string_view desc, std::vector<AttrSpec> attrs) {
  fields.push_back(MemberSpec{acc, pool.utf8(fieldName), pool.utf8(desc), std::move(attrs)});
  return fields.back();
}

void ClassBuilder::writeAttr(ByteWriter& w, const AttrSpec& a, Layout& layout) {
  if (!a.mark.empty()) layout.marks[a.mark] = w.size();
  w.u2(a.name);
  size_t lengthAt = w.size();
  w.u4(0);
  size_t start = w.size();
  if (!a.mark.empty() && a.codeHeader) layout.marks[a.mark + ".code"] = start + a.codeHeader;
  w.bytes(a.body);
  if (a.nested) writeAttrs(w, *a.nested, layout);
  w.bytes(a.tail);
  w.patchU4(lengthAt, a.length.value_or(static_cast<uint32_t>(w.size() - start)));
}

void ClassBuilder::writeAttrs(ByteWriter& w, const std::vector<AttrSpec>& attrs, Layout& layout,
                              std::optional<uint16_t> count) {
  w.u2(count.value_or(static_cast<uint16_t>(attrs.size())));
  for (const AttrSpec& a : attrs) writeAttr(w, a, layout);
}

Bytes ClassBuilder::build(Layout* layoutOut) {
  Layout layout;
  uint16_t thisIndex = thisClass ? *thisClass : pool.cls(name);
  uint16_t superIndex = superClass ? *superClass : superName.empty() ? 0 : pool.cls(superName);
  ByteWriter w;
  w.u4(magic).u2(minor).u2(major).u2(poolCount.value_or(pool.count()));
  pool.write(w);
  w.u2(access);
  layout.thisClass = w.size();
  w.u2(thisIndex);
  layout.superClass = w.size();
  w.u2(superIndex);
  layout.interfacesCount = w.size();
  w.u2(interfacesCount.value_or(static_cast<uint16_t>(interfaces.size())));
  for (uint16_t i : interfaces) w.u2(i);
  auto members = [&](const std::vector<MemberSpec>& list, std::optional<uint16_t> count,
                     std::vector<size_t>& offsets) {
    w.u2(count.value_or(static_cast<uint16_t>(list.size())));
    for (const MemberSpec& m : list) {
      offsets.push_back(w.size());
      w.u2(m.access).u2(m.name).u2(m.descriptor);
      writeAttrs(w, m.attributes, layout);
    }
  };
  layout.fieldsCount = w.size();
  members(fields, fieldsCount, layout.fields);
  layout.methodsCount = w.size();
  members(methods, methodsCount, layout.methods);
  layout.attributesCount = w.size();
  writeAttrs(w, attributes, layout, attributesCount);
  layout.end = w.size();
  w.bytes(trailing);
  if (layoutOut) *layoutOut = std::move(layout);
  return w.take();
}

// ---- results ------------------------------------------------------------------------------

std::string hex(const Bytes& b, size_t from, size_t n) {
  std::string s;
  char buf[4];
  for (size_t i = from; i < b.size() && i < from + n; ++i) {
    std::snprintf(buf, sizeof buf, "%02x ", b[i]);
    s += buf;
  }
  return s;
}

::testing::AssertionResult SameBytes(const Bytes& expected, const Bytes& actual) {
  if (expected == actual) return ::testing::AssertionSuccess();
  size_t i = 0;
  while (i < expected.size() && i < actual.size() && expected[i] == actual[i]) ++i;
  size_t from = i >= 8 ? i - 8 : 0;
  return ::testing::AssertionFailure()
         << "sizes " << expected.size() << " vs " << actual.size() << ", first difference at "
         << i << "\n  expected from " << from << ": " << hex(expected, from, 24)
         << "\n  actual   from " << from << ": " << hex(actual, from, 24);
}

::testing::AssertionResult RoundTrips(const Bytes& bytes) {
  auto parsed = cf::parseClass(bytes);
  if (!parsed) {
    return ::testing::AssertionFailure() << "parse failed: " << parsed.error().toString();
  }
  auto written = cf::writeClass(parsed.value());
  if (!written) {
    return ::testing::AssertionFailure() << "write failed: " << written.error().toString();
  }
  return SameBytes(bytes, written.value());
}

cf::ClassFile parseOk(const Bytes& bytes) {
  auto r = cf::parseClass(bytes);
  if (!r) {
    ADD_FAILURE() << "parse failed: " << r.error().toString();
    return cf::ClassFile{};
  }
  return std::move(r).value();
}

Bytes writeOk(const cf::ClassFile& cls) {
  auto r = cf::writeClass(cls);
  if (!r) {
    ADD_FAILURE() << "write failed: " << r.error().toString();
    return {};
  }
  return std::move(r).value();
}

cf::Error parseError(const Bytes& bytes) {
  auto r = cf::parseClass(bytes);
  if (r) {
    ADD_FAILURE() << "parse unexpectedly succeeded";
    return cf::Error{};
  }
  return r.error();
}

// ---- ModelBuilder -------------------------------------------------------------------------

ModelBuilder::ModelBuilder(std::string_view name, uint16_t major) {
  cls.major = major;
  cls.minor = 0;
  cls.access = 0x0021;
  cls.thisClass = cls.pool.addClass(name);
  cls.superClass = cls.pool.addClass("java/lang/Object");
}

cf::Member& ModelBuilder::addMethod(uint16_t access, std::string_view methodName,
                                    std::string_view desc) {
  cf::Member m;
  m.access = access;
  m.name = cls.pool.addUtf8(methodName);
  m.descriptor = cls.pool.addUtf8(desc);
  cls.methods.push_back(std::move(m));
  return cls.methods.back();
}

cf::CodeAttr& ModelBuilder::addCode(cf::Member& m, uint16_t maxStack, uint16_t maxLocals) {
  cf::CodeAttr code;
  code.maxStack = maxStack;
  code.maxLocals = maxLocals;
  m.attributes.push_back(cf::Attribute{cls.pool.addUtf8("Code"), std::move(code)});
  return std::get<cf::CodeAttr>(m.attributes.back().body);
}

Bytes readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return {};
  return Bytes(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

}  // namespace dragnet::test
