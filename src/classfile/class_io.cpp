// parseClass / writeClass: the top-level layout of a class file (JVMS 4.1).
#include <new>
#include <string>

#include "classfile/class_file.h"
#include "classfile/scratch.h"
#include "classfile/serial.h"

namespace dragnet::classfile {

namespace {

using detail::Context;
using detail::In;
using detail::Out;
using detail::Where;

constexpr uint32_t kMagic = 0xCAFEBABE;
constexpr uint16_t kAccModule = 0x8000;

void checkVersion(uint16_t major, uint16_t minor) {
  if (major < kMinMajor || major > kMaxMajor) {
    fail(6, "unsupported class-file version " + std::to_string(major) + "." +
                std::to_string(minor) + " (supported: 45.0 to 69.0)");
  }
  // From Java 12 (56) the minor version is 0, or 65535 for preview features.
  if (major >= 56 && minor != 0 && minor != 0xFFFF) {
    fail(4, "minor version " + std::to_string(minor) + " is invalid for major version " +
                std::to_string(major));
  }
}

void readMembers(Reader& r, Context& ctx, Where where, std::vector<Member>& out) {
  uint16_t n = r.u2();
  r.needArray(n, 8);
  out.resize(n);
  for (Member& m : out) {
    m.access = r.u2();
    size_t at = r.offset();
    m.name = CpIndex{r.u2()};
    ctx.pool->check(m.name, {Tag::Utf8}, at);
    at = r.offset();
    m.descriptor = CpIndex{r.u2()};
    ctx.pool->check(m.descriptor, {Tag::Utf8}, at);
    m.attributes.reuse();
    detail::readAttributes(r, ctx, where, m.attributes);
  }
}

// Cross reference the pool cannot check alone: (Invoke)Dynamic entries name a bootstrap
// method by index into the BootstrapMethods attribute.
void checkBootstrapIndices(const ClassFile& c) {
  const auto* bsm = findAttr<BootstrapMethodsAttr>(c.attributes);
  size_t count = bsm ? bsm->methods.size() : 0;
  for (uint16_t i = 1; i < c.pool.count(); ++i) {
    const CpEntry& e = c.pool[CpIndex{i}];
    if ((e.tag == Tag::Dynamic || e.tag == Tag::InvokeDynamic) && e.a >= count) {
      fail(std::nullopt,
           std::string(tagName(e.tag)) + " entry refers to bootstrap method " +
               std::to_string(e.a) + ", but the BootstrapMethods attribute has " +
               std::to_string(count),
           i);
    }
  }
}

void parseInto(ClassFile& c, Reader& r, std::string& name) {
  uint32_t magic = r.u4();
  if (magic != kMagic) fail(0, "not a class file (magic number is not 0xCAFEBABE)");
  c.minor = r.u2();
  c.major = r.u2();
  checkVersion(c.major, c.minor);
  c.pool.parse(r, c.major);
  Context ctx{&c.pool, c.major, c.minor, nullptr, 0};
  c.access = r.u2();
  size_t at = r.offset();
  c.thisClass = CpIndex{r.u2()};
  c.pool.check(c.thisClass, {Tag::Class}, at);
  name = std::string(c.name());
  at = r.offset();
  c.superClass = CpIndex{r.u2()};
  if (c.superClass != CpIndex::None) {
    c.pool.check(c.superClass, {Tag::Class}, at);
  } else if (name != "java/lang/Object" && !(c.access & kAccModule)) {
    fail(at, "super_class is 0, which only java/lang/Object and module-info may have");
  }
  In in(r, ctx);
  in.cpList(c.interfaces, {Tag::Class});
  readMembers(r, ctx, Where::Field, c.fields);
  readMembers(r, ctx, Where::Method, c.methods);
  detail::readAttributes(r, ctx, Where::Class, c.attributes);
  if (!r.atEnd()) {
    fail(r.offset(), std::to_string(r.remaining()) + " extra bytes after the class file");
  }
  checkBootstrapIndices(c);
}

void writeMembers(Writer& w, Context& ctx, const std::vector<Member>& members) {
  if (members.size() > 0xFFFF) fail(std::nullopt, "more than 65535 fields or methods");
  w.u2(static_cast<uint16_t>(members.size()));
  for (const Member& m : members) {
    w.u2(m.access);
    w.u2(raw(m.name));
    w.u2(raw(m.descriptor));
    detail::writeAttributes(w, ctx, m.attributes);
  }
}

}  // namespace

Result<ClassFile> parseClass(std::span<const uint8_t> bytes, const ParseOptions& options) {
  ClassFile c;
  c.sizeHint = bytes.size();
  Reader r(bytes);
  std::string name;
  try {
    parseInto(c, r, name);
  } catch (ParseFailure& e) {
    Error err = std::move(e.error());
    err.className = name.empty() ? std::string(options.nameHint) : name;
    return err;
  } catch (const std::bad_alloc&) {
    return Error{name.empty() ? std::string(options.nameHint) : name, r.offset(), std::nullopt,
                 "out of memory"};
  }
  return c;
}

Result<std::vector<uint8_t>> writeClass(const ClassFile& c) {
  // Written into a per-thread buffer that stays at its full size, then copied out at the
  // exact length: a fresh vector would be zero-filled first (the Writer sizes it up front).
  Scratch<std::vector<uint8_t>> buf;
  std::vector<uint8_t>& out = *buf;
  const size_t room = c.sizeHint + c.sizeHint / 4 + 256;
  if (out.size() < room) out.resize(room);
  size_t length = 0;
  try {
    Writer w(out, Writer::Overwrite{});
    w.u4(kMagic);
    w.u2(c.minor);
    w.u2(c.major);
    c.pool.write(w);
    Context ctx{&c.pool, c.major, c.minor, nullptr, 0};
    w.u2(c.access);
    w.u2(raw(c.thisClass));
    w.u2(raw(c.superClass));
    Out o(w, ctx);
    o.cpList(c.interfaces, {});
    writeMembers(w, ctx, c.fields);
    writeMembers(w, ctx, c.methods);
    detail::writeAttributes(w, ctx, c.attributes);
    length = w.size();
  } catch (ParseFailure& e) {
    Error err = std::move(e.error());
    err.className = c.pool.valid(c.thisClass) ? std::string(c.name()) : std::string();
    return err;
  }
  return std::vector<uint8_t>(out.begin(), out.begin() + static_cast<std::ptrdiff_t>(length));
}

}  // namespace dragnet::classfile
