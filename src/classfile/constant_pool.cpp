#include "classfile/constant_pool.h"

#include <array>
#include <bit>
#include <cstring>

#include "classfile/mutf8.h"

namespace dragnet::classfile {

const char* tagName(Tag t) {
  switch (t) {
    case Tag::Unusable:
      return "unusable";
    case Tag::Utf8:
      return "Utf8";
    case Tag::Integer:
      return "Integer";
    case Tag::Float:
      return "Float";
    case Tag::Long:
      return "Long";
    case Tag::Double:
      return "Double";
    case Tag::Class:
      return "Class";
    case Tag::String:
      return "String";
    case Tag::Fieldref:
      return "Fieldref";
    case Tag::Methodref:
      return "Methodref";
    case Tag::InterfaceMethodref:
      return "InterfaceMethodref";
    case Tag::NameAndType:
      return "NameAndType";
    case Tag::MethodHandle:
      return "MethodHandle";
    case Tag::MethodType:
      return "MethodType";
    case Tag::Dynamic:
      return "Dynamic";
    case Tag::InvokeDynamic:
      return "InvokeDynamic";
    case Tag::Module:
      return "Module";
    case Tag::Package:
      return "Package";
  }
  return "unknown";
}

std::string TagSet::describe() const {
  std::string s;
  for (unsigned t = 1; t <= 20; ++t) {
    if (!(bits_ >> t & 1u)) continue;
    if (!s.empty()) s += " or ";
    s += tagName(static_cast<Tag>(t));
  }
  return s;
}

ConstantPool::ConstantPool() : entries_(1) {}

void ConstantPool::parse(Reader& r, uint16_t majorVersion) {
  parseEntries(r, majorVersion);
  checkReferences(majorVersion);
}

namespace {
// How an entry's payload is laid out after its tag byte.
enum class Layout { None, Utf8, U4, U8, Ref, RefRef, Handle };
constexpr Layout layoutOf(Tag t) {
  switch (t) {
    case Tag::Utf8:
      return Layout::Utf8;
    case Tag::Integer:
    case Tag::Float:
      return Layout::U4;
    case Tag::Long:
    case Tag::Double:
      return Layout::U8;
    case Tag::Class:
    case Tag::String:
    case Tag::MethodType:
    case Tag::Module:
    case Tag::Package:
      return Layout::Ref;
    case Tag::Fieldref:
    case Tag::Methodref:
    case Tag::InterfaceMethodref:
    case Tag::NameAndType:
    case Tag::Dynamic:
    case Tag::InvokeDynamic:
      return Layout::RefRef;
    case Tag::MethodHandle:
      return Layout::Handle;
    default:
      return Layout::None;
  }
}

// Minimum version (major) that allows each tag; HotSpot rejects earlier use.
constexpr uint16_t minVersion(Tag t) {
  switch (t) {
    case Tag::MethodHandle:
    case Tag::MethodType:
    case Tag::InvokeDynamic:
      return 51;
    case Tag::Module:
    case Tag::Package:
      return 53;
    case Tag::Dynamic:
      return 55;
    default:
      return 45;
  }
}

// Both per tag byte in one table: the parser looks them up for every entry.
struct TagRule {
  Layout layout = Layout::None;
  uint16_t minMajor = 0;
};
constexpr std::array<TagRule, 256> makeTagRules() {
  std::array<TagRule, 256> t{};
  for (unsigned b = 0; b < 256; ++b) {
    auto tag = static_cast<Tag>(b);
    t[b] = {layoutOf(tag), minVersion(tag)};
  }
  t[0] = {};  // Unusable is not a tag of the format
  return t;
}
constexpr std::array<TagRule, 256> kTagRules = makeTagRules();
}  // namespace

void ConstantPool::parseEntries(Reader& r, uint16_t majorVersion) {
  size_t countOffset = r.offset();
  uint16_t count = r.u2();
  if (count == 0) fail(countOffset, "constant_pool_count is 0");
  // Every entry takes at least 3 bytes: bound the allocation by the input size.
  r.needArray(count - 1u, 3);
  // Room for a few additions (an instrumenter adds a handful per class) without moving
  // the whole pool; the buffers are a previous class's when the thread's pool has them.
  constexpr size_t kAddRoom = 16;
  entries_.reuse();
  entries_.reserve(count + kAddRoom);
  entries_.resize(count);
  parsedCount_ = count;
  lastAdded_ = 0;
  const size_t entriesStart = r.pos();
  entriesOffset_ = r.offset();
  for (uint16_t i = 1; i < count; ++i) {
    const size_t at = r.offset();
    CpEntry& e = entries_[i];
    uint8_t tagByte = r.u1();
    e.tag = static_cast<Tag>(tagByte);
    const TagRule rule = kTagRules[tagByte];
    switch (rule.layout) {
      case Layout::Utf8: {
        uint16_t len = r.u2();
        auto b = r.bytes(len);
        e.utf8 = std::string_view(reinterpret_cast<const char*>(b.data()), b.size());
        if (mutf8::isPlainAscii(e.utf8)) break;
        if (auto bad = mutf8::firstInvalid(e.utf8, majorVersion >= 48)) {
          fail(at + 3 + *bad, "illegal modified UTF-8 byte in Utf8 constant", i);
        }
        break;
      }
      case Layout::U4:
        e.value = r.u4();
        break;
      case Layout::U8:
        e.value = r.u8();
        // The two-slot rule: the next index is unusable and must exist.
        if (i + 1 >= count) fail(at, "Long/Double in the last constant-pool slot", i);
        ++i;
        break;
      case Layout::Ref:
        e.a = r.u2();
        break;
      case Layout::RefRef:
        e.a = r.u2();
        e.b = r.u2();
        break;
      case Layout::Handle:
        e.refKind = r.u1();
        e.a = r.u2();
        break;
      case Layout::None:
        fail(at, "unknown constant-pool tag " + std::to_string(tagByte), i);
    }
    if (majorVersion < rule.minMajor) {
      fail(at,
           std::string(tagName(e.tag)) + " constant needs class-file version " +
               std::to_string(rule.minMajor) + ", this is " + std::to_string(majorVersion),
           i);
    }
  }
  parsedBytes_ = r.since(entriesStart);
}

// Called by check() when `i` is invalid or has a tag not in `allowed`.
void ConstantPool::failCheck(CpIndex i, TagSet allowed, size_t offset) const {
  if (!valid(i)) {
    fail(offset,
         "invalid constant-pool index (pool has " + std::to_string(entries_.size()) + " slots)",
         raw(i));
  }
  Tag t = entries_[raw(i)].tag;
  fail(offset, std::string("expected ") + allowed.describe() + ", found " + tagName(t), raw(i));
}

namespace {
// What the `a` and `b` fields of an entry with a given tag must refer to (an empty set:
// the field is not a pool index, or is checked apart, as MethodHandle's by its kind).
struct RefRule {
  TagSet a, b;
};
constexpr std::array<RefRule, 21> makeRefRules() {
  std::array<RefRule, 21> r{};
  const TagSet utf8{Tag::Utf8};
  for (Tag t : {Tag::Class, Tag::String, Tag::MethodType, Tag::Module, Tag::Package}) {
    r[static_cast<size_t>(t)].a = utf8;
  }
  r[static_cast<size_t>(Tag::NameAndType)] = {utf8, utf8};
  for (Tag t : {Tag::Fieldref, Tag::Methodref, Tag::InterfaceMethodref}) {
    r[static_cast<size_t>(t)] = {{Tag::Class}, {Tag::NameAndType}};
  }
  // (Invoke)Dynamic: `a` indexes BootstrapMethods (checked by the class parser).
  r[static_cast<size_t>(Tag::Dynamic)].b = {Tag::NameAndType};
  r[static_cast<size_t>(Tag::InvokeDynamic)].b = {Tag::NameAndType};
  return r;
}
constexpr std::array<RefRule, 21> kRefRules = makeRefRules();

// What a MethodHandle's reference must be, by its kind (1..9).
TagSet handleTarget(RefKind kind, uint16_t majorVersion) {
  if (kind <= RefKind::PutStatic) return {Tag::Fieldref};
  if (kind == RefKind::InvokeVirtual || kind == RefKind::NewInvokeSpecial) return {Tag::Methodref};
  if (kind == RefKind::InvokeInterface) return {Tag::InterfaceMethodref};
  if (majorVersion >= 52) return {Tag::Methodref, Tag::InterfaceMethodref};
  return {Tag::Methodref};
}
}  // namespace

// One table lookup per entry instead of a switch with a check per case: this runs over
// every entry of every class, one of the hottest loops of parsing.
void ConstantPool::checkReferences(uint16_t majorVersion) const {
  const size_t n = entries_.size();
  // Slot 0 and the slots after Long/Double are Unusable, which no rule allows: a bounds
  // check and the tag test are the whole of valid() here.
  auto ok = [&](uint16_t target, TagSet allowed) {
    return target < n && allowed.has(entries_[target].tag);
  };
  for (size_t i = 1; i < n; ++i) {
    const CpEntry& e = entries_[i];
    const RefRule& rule = kRefRules[static_cast<size_t>(e.tag)];  // parsed tags are < 21
    if (!rule.a.empty() && !ok(e.a, rule.a)) [[unlikely]]
      failReference(i, e.a, rule.a);
    if (!rule.b.empty() && !ok(e.b, rule.b)) [[unlikely]]
      failReference(i, e.b, rule.b);
    if (e.tag != Tag::MethodHandle) continue;
    if (e.refKind < 1 || e.refKind > 9) {
      fail(entryOffset(i),
           "MethodHandle reference kind " + std::to_string(e.refKind) + " not in 1..9",
           static_cast<uint16_t>(i));
    }
    auto kind = static_cast<RefKind>(e.refKind);
    TagSet target = handleTarget(kind, majorVersion);
    if (!ok(e.a, target)) failReference(i, e.a, target);
    if (kind >= RefKind::InvokeVirtual) checkHandleName(i);
  }
}

// The file offset of parsed entry i, found again from the parsed bytes (whose layout the
// parser checked): only errors need it, and keeping an offset per entry cost a store and
// 8 bytes per entry of every class.
size_t ConstantPool::entryOffset(size_t i) const {
  size_t off = 0;
  for (size_t k = 1; k < i && k < parsedCount_; ++k) {
    const uint8_t* p = parsedBytes_.data() + off;
    switch (kTagRules[p[0]].layout) {
      case Layout::Utf8:
        off += 3 + (size_t{p[1]} << 8 | p[2]);
        break;
      case Layout::U4:
        off += 5;
        break;
      case Layout::U8:
        off += 9;
        ++k;  // the unusable slot after it
        break;
      case Layout::Ref:
        off += 3;
        break;
      case Layout::RefRef:
        off += 5;
        break;
      case Layout::Handle:
        off += 4;
        break;
      case Layout::None:
        return entriesOffset_ + off;  // not reached: the parser rejected such tags
    }
  }
  return entriesOffset_ + off;
}

void ConstantPool::failReference(size_t i, uint16_t target, TagSet allowed) const {
  const CpEntry& e = entries_[i];
  fail(entryOffset(i),
       std::string(tagName(e.tag)) + " entry #" + std::to_string(i) + " refers to #" +
           std::to_string(target) + ", which is " +
           (valid(CpIndex{target}) ? tagName(entries_[target].tag) : "not a valid index") +
           "; expected " + allowed.describe(),
       static_cast<uint16_t>(i));
}

// Method handles of kind 5-7 and 9 must not name <init> or <clinit>; kind 8
// (newInvokeSpecial) must name <init>. Runs before the referenced Methodref's own check,
// so its NameAndType is validated here before it is read.
void ConstantPool::checkHandleName(size_t i) const {
  const CpEntry& e = entries_[i];
  CpIndex nat{entries_[e.a].b};
  if (tag(nat) != Tag::NameAndType || tag(CpIndex{entries_[raw(nat)].a}) != Tag::Utf8) return;
  // Only the name index is checked so far: nameAndType() would also read the unchecked
  // descriptor index, out of bounds when it is invalid.
  std::string_view name = utf8(CpIndex{entries_[raw(nat)].a});
  bool isInit = name == "<init>";
  if ((static_cast<RefKind>(e.refKind) == RefKind::NewInvokeSpecial) != isInit ||
      name == "<clinit>") {
    fail(entryOffset(i),
         "MethodHandle of kind " + std::to_string(e.refKind) + " names method " + std::string(name),
         static_cast<uint16_t>(i));
  }
}

void ConstantPool::write(Writer& w) const {
  w.u2(count());
  // Parsed entries never change (only additions follow them) and parseEntries accepted
  // each one's bytes as exactly the encoding the loop below would produce (every layout
  // has one encoding), so they are copied as read. Added entries are encoded.
  w.bytes(parsedBytes_);
  writeEntries(w, parsedCount_);
}

void ConstantPool::writeEncoded(Writer& w) const {
  w.u2(count());
  writeEntries(w, 1);
}

void ConstantPool::writeEntries(Writer& w, size_t from) const {
  for (size_t i = from; i < entries_.size(); ++i) {
    const CpEntry& e = entries_[i];
    if (e.tag == Tag::Unusable) continue;
    w.u1(static_cast<uint8_t>(e.tag));
    switch (layoutOf(e.tag)) {
      case Layout::Utf8:
        w.u2(static_cast<uint16_t>(e.utf8.size()));
        w.bytes(e.utf8);
        break;
      case Layout::U4:
        w.u4(static_cast<uint32_t>(e.value));
        break;
      case Layout::U8:
        w.u8(e.value);
        break;
      case Layout::Ref:
        w.u2(e.a);
        break;
      case Layout::Handle:
        w.u1(e.refKind);
        w.u2(e.a);
        break;
      case Layout::RefRef:
        w.u2(e.a);
        w.u2(e.b);
        break;
      case Layout::None:
        break;
    }
  }
}

std::string_view ConstantPool::className(CpIndex classIndex) const {
  return entries_[entries_[raw(classIndex)].a].utf8;
}

std::pair<std::string_view, std::string_view> ConstantPool::nameAndType(CpIndex nat) const {
  const CpEntry& e = entries_[raw(nat)];
  return {entries_[e.a].utf8, entries_[e.b].utf8};
}

ConstantPool::Member ConstantPool::memberRef(CpIndex ref) const {
  const CpEntry& e = entries_[raw(ref)];
  auto [name, desc] = nameAndType(CpIndex{e.b});
  return {className(CpIndex{e.a}), name, desc};
}

float ConstantPool::floatValue(CpIndex i) const {
  return std::bit_cast<float>(static_cast<uint32_t>(entries_[raw(i)].value));
}
double ConstantPool::doubleValue(CpIndex i) const {
  return std::bit_cast<double>(entries_[raw(i)].value);
}

namespace {
// Hash and equality of entries by value, without building keys: the index is consulted
// for every added pool entry, i.e. for every probe an instrumenter inserts.
uint64_t mix(uint64_t h, uint64_t v) {
  h ^= v + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
  return h;
}

uint64_t hashEntry(const CpEntry& e) {
  uint64_t h = static_cast<uint64_t>(e.tag) * 0x100000001B3ull;
  if (e.tag == Tag::Utf8) {
    // Eight bytes at a time: every Utf8 of a class is hashed when its index is built.
    uint64_t f = 0xCBF29CE484222325ull ^ e.utf8.size();
    size_t i = 0;
    for (; i + 8 <= e.utf8.size(); i += 8) {
      uint64_t w;
      std::memcpy(&w, e.utf8.data() + i, 8);
      f = (f ^ w) * 0x9E3779B97F4A7C15ull;
      f ^= f >> 29;
    }
    uint64_t tail = 0;
    std::memcpy(&tail, e.utf8.data() + i, e.utf8.size() - i);
    f = (f ^ tail) * 0x9E3779B97F4A7C15ull;
    return mix(h, f ^ (f >> 32));
  }
  h = mix(h, e.refKind);
  h = mix(h, uint64_t{e.a} << 16 | e.b);
  return mix(h, e.value);
}

bool sameEntry(const CpEntry& x, const CpEntry& y) {
  if (x.tag != y.tag) return false;
  if (x.tag == Tag::Utf8) return x.utf8 == y.utf8;
  return x.refKind == y.refKind && x.a == y.a && x.b == y.b && x.value == y.value;
}
}  // namespace

// Open addressing over entry indices (0 = empty slot), at most a quarter full.
void ConstantPool::indexInsert(uint16_t i) const {
  size_t mask = slots_.size() - 1;
  for (size_t h = hashEntry(entries_[i]) & mask;; h = (h + 1) & mask) {
    if (slots_[h] == 0) {
      slots_[h] = i;
      return;
    }
    if (sameEntry(entries_[slots_[h]], entries_[i])) return;  // keep the first occurrence
  }
}

// Brings the index up to date with the entries (of indexed tags) added since, growing the
// table with the pool.
void ConstantPool::syncIndex() const {
  size_t want = 128;
  while (want < entries_.size() * 4) want <<= 1;
  size_t from = indexedCount_;
  if (slots_.size() < want) {
    slots_.assign(want, 0);
    from = 1;
  }
  for (size_t i = from; i < entries_.size(); ++i) {
    if (isIndexed(entries_[i].tag)) indexInsert(static_cast<uint16_t>(i));
  }
  indexedCount_ = entries_.size();
}

void ConstantPool::indexTag(Tag t) const {
  indexedTags_ |= 1u << static_cast<unsigned>(t);
  if (!slots_.empty()) {  // the entries already synced were skipped for this tag
    for (size_t i = 1; i < indexedCount_; ++i) {
      if (entries_[i].tag == t) indexInsert(static_cast<uint16_t>(i));
    }
  }
  syncIndex();
}

// The first entry equal to `e`, by a linear scan. It compares tags (and lengths) before
// contents, which rejects almost every entry at once.
std::optional<CpIndex> ConstantPool::scan(const CpEntry& e) const {
  for (size_t i = 1; i < entries_.size(); ++i) {
    const CpEntry& x = entries_[i];
    if (x.tag == e.tag && (x.tag != Tag::Utf8 || x.utf8.size() == e.utf8.size()) &&
        sameEntry(x, e)) {
      return CpIndex{static_cast<uint16_t>(i)};
    }
  }
  return std::nullopt;
}

std::optional<CpIndex> ConstantPool::find(const CpEntry& e) const {
  auto t = static_cast<unsigned>(e.tag);
  if (t >= scans_.size()) return scan(e);  // not a valid tag: never indexed
  if (!isIndexed(e.tag)) {
    if (scans_[t] < (e.tag == Tag::Utf8 ? kUtf8ScansBeforeIndex : kScansBeforeIndex)) {
      ++scans_[t];
      return scan(e);
    }
    indexTag(e.tag);
  }
  if (indexedCount_ != entries_.size()) syncIndex();
  size_t mask = slots_.size() - 1;
  for (size_t h = hashEntry(e) & mask;; h = (h + 1) & mask) {
    uint16_t i = slots_[h];
    if (i == 0) return std::nullopt;
    if (sameEntry(entries_[i], e)) return CpIndex{i};
  }
}

// Whether `e` refers to the newest entry, which was added (not parsed): then nothing can
// equal it yet, because only entries added after an added entry refer to it. Adding a
// Methodref to a new owner or name thus looks up only the Utf8 strings, not every level.
bool ConstantPool::refersToNewest(const CpEntry& e) const {
  size_t newest = entries_.size() - 1;
  if (newest < parsedCount_) return false;
  switch (layoutOf(e.tag)) {
    case Layout::Ref:
    case Layout::Handle:
      return e.a == newest;
    case Layout::RefRef: {  // (Invoke)Dynamic: `a` indexes BootstrapMethods, not the pool
      bool bootstrap = e.tag == Tag::Dynamic || e.tag == Tag::InvokeDynamic;
      return (!bootstrap && e.a == newest) || e.b == newest;
    }
    default:
      return false;
  }
}

CpIndex ConstantPool::add(const CpEntry& entry) {
  if (lastAdded_ != 0 && sameEntry(entries_[lastAdded_], entry)) return CpIndex{lastAdded_};
  if (!refersToNewest(entry)) {
    if (auto existing = find(entry)) {
      lastAdded_ = raw(*existing);
      return *existing;
    }
  }
  return append(entry);
}

CpIndex ConstantPool::append(const CpEntry& entry) {
  bool wide = entry.tag == Tag::Long || entry.tag == Tag::Double;
  if (entries_.size() + (wide ? 2 : 1) > 65535) {
    fail(std::nullopt, "constant pool full: cannot add a " + std::string(tagName(entry.tag)) +
                           " entry beyond 65535 slots");
  }
  CpEntry e = entry;
  if (e.tag == Tag::Utf8) {
    if (e.utf8.size() > 65535) fail(std::nullopt, "Utf8 constant longer than 65535 bytes");
    // Made at the first added Utf8: most parsed classes never get one, and an empty deque
    // already costs three allocations.
    if (!owned_) owned_ = std::make_unique<std::deque<std::string>>();
    e.utf8 = owned_->emplace_back(entry.utf8);
  }
  auto idx = static_cast<uint16_t>(entries_.size());
  entries_.push_back(e);
  if (wide) {
    entries_.emplace_back();
  }
  if (indexedTags_ != 0) syncIndex();  // indexes just the new entry, or grows the table
  lastAdded_ = idx;
  return CpIndex{idx};
}

CpIndex ConstantPool::addUtf8(std::string_view s) {
  CpEntry e;
  e.tag = Tag::Utf8;
  e.utf8 = s;
  return add(e);
}

namespace {
CpEntry ref1(Tag t, CpIndex a) {
  CpEntry e;
  e.tag = t;
  e.a = raw(a);
  return e;
}
CpEntry ref2(Tag t, CpIndex a, CpIndex b) {
  CpEntry e = ref1(t, a);
  e.b = raw(b);
  return e;
}
CpEntry number(Tag t, uint64_t bits) {
  CpEntry e;
  e.tag = t;
  e.value = bits;
  return e;
}
}  // namespace

CpIndex ConstantPool::addClass(std::string_view n) { return add(ref1(Tag::Class, addUtf8(n))); }
CpIndex ConstantPool::addString(std::string_view s) { return add(ref1(Tag::String, addUtf8(s))); }
CpIndex ConstantPool::addMethodType(std::string_view d) {
  return add(ref1(Tag::MethodType, addUtf8(d)));
}
CpIndex ConstantPool::addInteger(int32_t v) {
  return add(number(Tag::Integer, static_cast<uint32_t>(v)));
}
CpIndex ConstantPool::addFloat(float v) {
  return add(number(Tag::Float, std::bit_cast<uint32_t>(v)));
}
CpIndex ConstantPool::addLong(int64_t v) {
  return add(number(Tag::Long, static_cast<uint64_t>(v)));
}
CpIndex ConstantPool::addDouble(double v) {
  return add(number(Tag::Double, std::bit_cast<uint64_t>(v)));
}
CpIndex ConstantPool::addNameAndType(std::string_view name, std::string_view desc) {
  CpIndex n = addUtf8(name);
  CpIndex d = addUtf8(desc);
  return add(ref2(Tag::NameAndType, n, d));
}
// A member reference. While Utf8 lookups scan the pool (it has no Utf8 index), its three
// strings are looked up in one pass instead of three: every tool adds its Methodref to
// every class it rewrites. The entries are added in the
// order of separate lookups (owner, its Class, name, descriptor): the same pool results.
CpIndex ConstantPool::addMemberRef(Tag tag, std::string_view o, std::string_view n,
                                   std::string_view d) {
  auto& scans = scans_[static_cast<unsigned>(Tag::Utf8)];
  if (isIndexed(Tag::Utf8) || scans + 3 > kUtf8ScansBeforeIndex) {
    CpIndex c = addClass(o);
    return add(ref2(tag, c, addNameAndType(n, d)));
  }
  scans += 3;  // as three lookups would, so that the index comes when it would have
  const std::array<std::string_view, 3> text{o, n, d};
  std::array<CpIndex, 3> found{CpIndex::None, CpIndex::None, CpIndex::None};
  size_t missing = text.size();
  for (size_t i = 1; i < entries_.size() && missing > 0; ++i) {
    const CpEntry& x = entries_[i];
    if (x.tag != Tag::Utf8) continue;
    for (size_t k = 0; k < text.size(); ++k) {
      if (found[k] == CpIndex::None && x.utf8.size() == text[k].size() && x.utf8 == text[k]) {
        found[k] = CpIndex{static_cast<uint16_t>(i)};
        --missing;
      }
    }
  }
  auto utf8 = [&](size_t k) {
    for (size_t j = 0; j < k; ++j) {
      if (text[j] == text[k]) return found[j];  // the same string: added or found already
    }
    if (found[k] == CpIndex::None) {
      CpEntry e;
      e.tag = Tag::Utf8;
      e.utf8 = text[k];
      found[k] = append(e);
    }
    lastAdded_ = raw(found[k]);
    return found[k];
  };
  CpIndex c = add(ref1(Tag::Class, utf8(0)));
  CpIndex name = utf8(1);
  CpIndex nat = add(ref2(Tag::NameAndType, name, utf8(2)));
  return add(ref2(tag, c, nat));
}

CpIndex ConstantPool::addFieldref(std::string_view o, std::string_view n, std::string_view d) {
  return addMemberRef(Tag::Fieldref, o, n, d);
}
CpIndex ConstantPool::addMethodref(std::string_view o, std::string_view n, std::string_view d) {
  return addMemberRef(Tag::Methodref, o, n, d);
}
CpIndex ConstantPool::addInterfaceMethodref(std::string_view o, std::string_view n,
                                            std::string_view d) {
  return addMemberRef(Tag::InterfaceMethodref, o, n, d);
}
CpIndex ConstantPool::addMethodHandle(RefKind kind, CpIndex reference) {
  CpEntry e = ref1(Tag::MethodHandle, reference);
  e.refKind = static_cast<uint8_t>(kind);
  return add(e);
}

}  // namespace dragnet::classfile
