#include "agent/jit_settings.h"

#include <dlfcn.h>

#include <cstdint>
#include <cstring>
#include <optional>

namespace dragnet::agent {

namespace {

// HotSpot's exported description of its own data structures (vmStructs.hpp): arrays of
// entries whose field offsets and strides are themselves exported, so that readers need
// no header of the JVM that built them.
struct VmStructs {
  void* handle = nullptr;
  template <class T>
  std::optional<T> value(const char* symbol) const {
    void* p = dlsym(handle, symbol);
    if (!p) return std::nullopt;
    T v;
    std::memcpy(&v, p, sizeof v);
    return v;
  }
};

template <class T>
T readAt(const char* base, uint64_t offset) {
  T v;
  std::memcpy(&v, base + offset, sizeof v);
  return v;
}

// JVMFlag's entries in the struct table, read in one pass: the addresses of the static
// fields `flags` and `numFlags`, the offsets of `_name` and `_addr`.
struct FlagFields {
  void* flags = nullptr;
  void* count = nullptr;
  std::optional<uint64_t> name, addr;
  bool complete() const { return flags && count && name && addr; }
};

FlagFields flagFields(const VmStructs& vm) {
  FlagFields out;
  auto table = vm.value<const char*>("gHotSpotVMStructs");
  auto stride = vm.value<uint64_t>("gHotSpotVMStructEntryArrayStride");
  auto typeOff = vm.value<uint64_t>("gHotSpotVMStructEntryTypeNameOffset");
  auto fieldOff = vm.value<uint64_t>("gHotSpotVMStructEntryFieldNameOffset");
  auto offOff = vm.value<uint64_t>("gHotSpotVMStructEntryOffsetOffset");
  auto addrOff = vm.value<uint64_t>("gHotSpotVMStructEntryAddressOffset");
  if (!table || !*table || !stride || !typeOff || !fieldOff || !offOff || !addrOff) return out;
  for (const char* e = *table;; e += *stride) {
    auto t = readAt<const char*>(e, *typeOff);
    if (!t) return out;
    auto f = readAt<const char*>(e, *fieldOff);
    if (!f || std::strcmp(t, "JVMFlag") != 0) continue;
    if (std::strcmp(f, "flags") == 0) out.flags = readAt<void*>(e, *addrOff);
    if (std::strcmp(f, "numFlags") == 0) out.count = readAt<void*>(e, *addrOff);
    if (std::strcmp(f, "_name") == 0) out.name = readAt<uint64_t>(e, *offOff);
    if (std::strcmp(f, "_addr") == 0) out.addr = readAt<uint64_t>(e, *offOff);
  }
}

std::optional<uint64_t> typeSize(const VmStructs& vm, const char* type) {
  auto table = vm.value<const char*>("gHotSpotVMTypes");
  auto stride = vm.value<uint64_t>("gHotSpotVMTypeEntryArrayStride");
  auto nameOff = vm.value<uint64_t>("gHotSpotVMTypeEntryTypeNameOffset");
  auto sizeOff = vm.value<uint64_t>("gHotSpotVMTypeEntrySizeOffset");
  if (!table || !*table || !stride || !nameOff || !sizeOff) return std::nullopt;
  for (const char* e = *table;; e += *stride) {
    auto t = readAt<const char*>(e, *nameOff);
    if (!t) return std::nullopt;
    if (std::strcmp(t, type) == 0) return readAt<uint64_t>(e, *sizeOff);
  }
}

// The JVM's flag table (JVMFlag::flags, JVMFlag::numFlags; JDK 17 and later).
class FlagTable {
 public:
  explicit FlagTable(const VmStructs& vm) {
    FlagFields fields = flagFields(vm);
    auto size = typeSize(vm, "JVMFlag");
    if (!fields.complete() || !size) return;
    base_ = *static_cast<char**>(fields.flags);
    count_ = *static_cast<size_t*>(fields.count);
    size_ = *size;
    nameOffset_ = *fields.name;
    addrOffset_ = *fields.addr;
  }
  bool usable() const { return base_ && count_ && size_; }

  // The storage of flag `name`, or null.
  void* find(const char* name) const {
    for (size_t i = 0; i < count_; ++i) {
      const char* f = base_ + i * size_;
      auto n = readAt<const char*>(f, nameOffset_);
      if (n && std::strcmp(n, name) == 0) return readAt<void*>(f, addrOffset_);
    }
    return nullptr;
  }

 private:
  char* base_ = nullptr;
  size_t count_ = 0, size_ = 0;
  uint64_t nameOffset_ = 0, addrOffset_ = 0;
};

// libjvm's handle, found from the JNI invoke interface the JVM handed us: an embedding
// launcher may have loaded libjvm without RTLD_GLOBAL, so a global lookup is not enough.
void* jvmHandle(JavaVM* vm) {
  Dl_info info{};
  if (!dladdr(reinterpret_cast<void*>(vm->functions->GetEnv), &info) || !info.dli_fname) {
    return nullptr;
  }
  return dlopen(info.dli_fname, RTLD_NOW | RTLD_NOLOAD);
}

}  // namespace

JitSettings keepAllocationsInBytecode(JavaVM* vm, const std::vector<std::string>& more) {
  JitSettings out;
  VmStructs structs{jvmHandle(vm)};
  if (!structs.handle) {
    out.detail = "libjvm not found: JIT unchanged";
    return out;
  }
  FlagTable table(structs);
  if (!table.usable()) {
    out.detail = "no HotSpot flag table (gHotSpotVMStructs): JIT unchanged";
    return out;
  }
  std::string missing;
  auto note = [&](const char* flag) {
    missing += (missing.empty() ? "" : ", ") + std::string(flag);
  };
  if (void* list = table.find("DisableIntrinsic")) {
    // The list lives as long as the JVM; HotSpot never frees a flag's initial string.
    const char* current = *static_cast<const char**>(list);
    auto* merged =
        new std::string(mergeIntrinsicList(current ? current : "", disabledIntrinsicList()));
    for (const std::string& id : more) *merged = mergeIntrinsicList(*merged, id);
    *static_cast<const char**>(list) = merged->c_str();
  } else {
    note("DisableIntrinsic");
  }
  for (const DisabledTransformation& t : disabledTransformations()) {
    if (void* flag = table.find(t.flag)) {
      *static_cast<bool*>(flag) = false;
    } else {
      note(t.flag);
    }
  }
  out.applied = missing.empty();
  out.detail = out.applied ? "allocating intrinsics, string-concatenation fusion and box "
                             "elimination off"
                           : "flags not found: " + missing;
  return out;
}

}  // namespace dragnet::agent
