#include "class_tool.h"

#include <utility>

#include "classfile/class_file.h"

namespace dragnet::cli {
namespace {

using classfile::Result;

// Identity: parse with the library and write the class back from the model.
class NoneTool final : public ClassTool {
 public:
  std::string_view name() const override { return "none"; }
  Result<std::vector<uint8_t>> transform(std::span<const uint8_t> bytes,
                                         std::string_view entryName) override {
    auto cls = classfile::parseClass(bytes, classfile::ParseOptions{entryName});
    if (!cls) return cls.error();
    return classfile::writeClass(cls.value());
  }
};

// Test aid: adds an empty class attribute "dragnet.Mark" (unknown attributes are ignored by
// the JVM), so every class that parses comes out changed but still loads. Exercises the
// changed-class paths (jar entry rewriting, signature removal) that `none` never takes.
class MarkTool final : public ClassTool {
 public:
  std::string_view name() const override { return "mark"; }
  Result<std::vector<uint8_t>> transform(std::span<const uint8_t> bytes,
                                         std::string_view entryName) override {
    auto parsed = classfile::parseClass(bytes, classfile::ParseOptions{entryName});
    if (!parsed) return parsed.error();
    classfile::ClassFile& cls = parsed.value();
    try {
      classfile::Attribute mark{cls.pool.addUtf8("dragnet.Mark"), classfile::RawAttr{}};
      cls.attributes.push_back(std::move(mark));
    } catch (const classfile::ParseFailure& e) {
      return e.error();  // constant pool full
    }
    return classfile::writeClass(cls);
  }
};

// A BIT tool (icount, branches): parse, instrument every method, write.
class BitToolAdapter final : public ClassTool {
 public:
  BitToolAdapter(std::unique_ptr<tools::BitTool> tool, const ToolOptions& o)
      : tool_(std::move(tool)), options_(o) {}
  std::string_view name() const override { return tool_->name(); }
  Result<std::vector<uint8_t>> transform(std::span<const uint8_t> bytes,
                                         std::string_view entryName) override {
    auto parsed = classfile::parseClass(bytes, classfile::ParseOptions{entryName});
    if (!parsed) return parsed.error();
    try {
      tool_->instrument(parsed.value());
    } catch (const classfile::ParseFailure& e) {
      return e.error();  // the constant pool is full: the class stays as it was
    }
    return classfile::writeClass(parsed.value());
  }
  std::vector<tools::ExtraFile> extraFiles() const override {
    std::vector<tools::ExtraFile> files = tool_->extraFiles();
    if (!options_.withRuntime) {
      std::erase_if(files, [](const tools::ExtraFile& f) { return f.path.ends_with(".class"); });
    }
    return files;
  }
  std::vector<std::string> unchangedMethods() const override { return tool_->unchangedMethods(); }
  std::string runHint() const override {
    std::string n(tool_->name());
    return "run the output as before" +
           std::string(options_.withRuntime ? ""
                                            : " with build/runtime/dragnet-tools.jar on the "
                                              "class path") +
           "; at exit the report goes to dragnet-" + n + ".txt (-Ddragnet.report=FILE)";
  }

 private:
  std::unique_ptr<tools::BitTool> tool_;
  ToolOptions options_;
};

template <class T>
std::unique_ptr<ClassTool> make(const ToolOptions&) {
  return std::make_unique<T>();
}

template <std::unique_ptr<tools::BitTool> (*Make)(int32_t)>
std::unique_ptr<ClassTool> makeBit(const ToolOptions& o) {
  return std::make_unique<BitToolAdapter>(Make(o.idBase), o);
}

constexpr ToolInfo kTools[] = {
    {"none", "identity: parse every class and write it back unchanged", false, &make<NoneTool>},
    {"icount", "count executed bytecode instructions per method (BIT)", false,
     &makeBit<tools::makeICount>},
    {"branches", "count taken/not-taken outcomes of every conditional branch (BIT)", false,
     &makeBit<tools::makeBranches>},
    {"mark", "testing: add an empty 'dragnet.Mark' class attribute", true, &make<MarkTool>},
};

}  // namespace

std::span<const ToolInfo> toolRegistry() { return kTools; }

std::unique_ptr<ClassTool> makeTool(std::string_view name, const ToolOptions& options) {
  for (const ToolInfo& t : kTools) {
    if (t.name == name) return t.make(options);
  }
  return nullptr;
}

std::string knownToolNames() {
  std::string names;
  for (const ToolInfo& t : kTools) {
    if (t.hidden) continue;
    if (!names.empty()) names += ", ";
    names += t.name;
  }
  return names;
}

std::string toolHelp() {
  std::string text;
  for (const ToolInfo& t : kTools) {
    if (t.hidden) continue;
    text += "  ";
    text += t.name;
    text.append(t.name.size() < 10 ? 10 - t.name.size() : 1, ' ');
    text += t.description;
    text += '\n';
  }
  return text;
}

}  // namespace dragnet::cli
