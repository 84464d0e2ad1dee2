#include "instrument/class_hierarchy.h"

#include <fstream>
#include <iterator>
#include <unordered_set>
#include <utility>

#include "classfile/class_file.h"

namespace dragnet::instrument {

namespace fs = std::filesystem;

namespace {

constexpr std::string_view kObject = "java/lang/Object";
constexpr uint16_t kAccInterface = 0x0200;
// A superclass chain longer than this is a cycle in malformed input (real ones are < 20).
constexpr int kMaxDepth = 1000;

std::optional<std::vector<uint8_t>> readIfExists(const fs::path& p) {
  std::error_code ec;
  if (!fs::is_regular_file(p, ec)) return std::nullopt;
  std::ifstream in(p, std::ios::binary);
  if (!in) return std::nullopt;
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), {});
}

fs::path classFile(const fs::path& root, std::string_view name) {
  return root / (std::string(name) + ".class");
}

// The component type of an array descriptor as a reference name, or empty if the component
// is primitive: "[Ljava/lang/String;" -> "java/lang/String", "[[I" -> "[I", "[I" -> "".
std::string_view componentReference(std::string_view array) {
  std::string_view c = array.substr(1);
  if (c.starts_with('[')) return c;
  if (c.starts_with('L') && c.ends_with(';')) return c.substr(1, c.size() - 2);
  return {};
}

}  // namespace

ClassSource directorySource(fs::path root) {
  return [root = std::move(root)](std::string_view name) {
    return readIfExists(classFile(root, name));
  };
}

ClassSource moduleImageSource(const fs::path& root) {
  std::vector<fs::path> modules;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(root, ec)) {
    if (e.is_directory(ec)) modules.push_back(e.path());
  }
  return [modules = std::move(modules)](std::string_view name) {
    for (const fs::path& m : modules) {
      if (auto bytes = readIfExists(classFile(m, name))) return bytes;
    }
    return std::optional<std::vector<uint8_t>>{};
  };
}

ClassSource chainSources(std::vector<ClassSource> sources) {
  return [sources = std::move(sources)](std::string_view name) {
    for (const ClassSource& s : sources) {
      if (auto bytes = s(name)) return bytes;
    }
    return std::optional<std::vector<uint8_t>>{};
  };
}

ClassHierarchy::ClassHierarchy(ClassSource source) : source_(std::move(source)) {}

void ClassHierarchy::define(std::string name, std::string superName, bool isInterface) {
  cache_[std::move(name)] = Info{std::move(superName), isInterface, true};
}

void ClassHierarchy::define(const classfile::ClassFile& cls) {
  std::string super;
  if (cls.superClass != classfile::CpIndex::None) super = cls.pool.className(cls.superClass);
  define(std::string(cls.name()), std::move(super), (cls.access & kAccInterface) != 0);
}

const ClassHierarchy::Info& ClassHierarchy::lookup(std::string_view name) {
  auto it = cache_.find(std::string(name));
  if (it == cache_.end()) {
    Info info{std::string(kObject), false, false};
    if (name == kObject) info = Info{"", false, true};
    std::optional<std::vector<uint8_t>> bytes;
    if (!info.known && source_) bytes = source_(name);
    if (bytes) {
      // parseClass validates the whole class; only super_class and the flags are read.
      auto parsed = classfile::parseClass(*bytes);
      if (parsed && parsed.value().name() == name) {
        const classfile::ClassFile& c = parsed.value();
        info.known = true;
        info.isInterface = (c.access & kAccInterface) != 0;
        info.super = c.superClass == classfile::CpIndex::None
                         ? std::string()
                         : std::string(c.pool.className(c.superClass));
      }
    }
    it = cache_.emplace(std::string(name), std::move(info)).first;
  }
  if (!it->second.known) {
    ++guesses_;
    if (reported_.insert(it->first).second) unknown_.push_back(it->first);
  }
  return it->second;
}

std::string ClassHierarchy::superName(std::string_view name) { return lookup(name).super; }

bool ClassHierarchy::isInterface(std::string_view name) { return lookup(name).isInterface; }

std::string ClassHierarchy::mergeArrays(std::string_view a, std::string_view b) {
  std::string_view ca = componentReference(a), cb = componentReference(b);
  if (ca.empty() || cb.empty()) return std::string(kObject);
  std::string c = commonSuperclass(ca, cb);
  // Built by appending: GCC 12 misreports -Wrestrict on "literal" + std::string.
  std::string out("[");
  if (c.starts_with('[')) return out.append(c);
  return out.append("L").append(c).append(";");
}

std::string ClassHierarchy::commonSuperclass(std::string_view a, std::string_view b) {
  if (a == b) return std::string(a);
  bool arrayA = a.starts_with('['), arrayB = b.starts_with('[');
  if (arrayA && arrayB) return mergeArrays(a, b);
  if (arrayA || arrayB || a == kObject || b == kObject) return std::string(kObject);
  if (isInterface(a) || isInterface(b)) return std::string(kObject);
  std::unordered_set<std::string> ancestors;
  std::string c(a);
  for (int depth = 0; !c.empty() && depth < kMaxDepth; ++depth) {
    ancestors.insert(c);
    c = superName(c);
  }
  c = std::string(b);
  for (int depth = 0; !c.empty() && depth < kMaxDepth; ++depth) {
    if (ancestors.count(c)) return c;
    c = superName(c);
  }
  return std::string(kObject);
}

}  // namespace dragnet::instrument
