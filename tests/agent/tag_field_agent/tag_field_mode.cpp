#include "tag_field_mode.h"

#include <atomic>
#include <cstdio>

#include "flow/tag_field.h"

namespace dragnet::test::tagfield {
namespace {

bool onlyObject(std::string_view name) { return name == "java/lang/Object"; }

class Mode final : public agent::Mode {
 public:
  bool load(agent::Host& host, std::map<std::string, std::string>&, agent::ModeEvents&,
            std::string&) override {
    host_ = &host;
    const options::Values& v = host.options->values;
    denied_ = v.text("deny") == "object" ? onlyObject : flow::isDeniedTagClass;
    return true;
  }
  std::string startLine(const agent::Host&) const override { return "adding dragnet$tag"; }
  bool rewrites() const override { return true; }

  void transform(agent::ClassLoad& c) override {
    bool changed = flow::addTagField(c.cls, denied_).added;
    if (changed) ++added_;
    // The core rewrites the reflection filter (every rewriting mode hides its fields).
    if (c.name == flow::kReflectionClass && c.mustInstall) hidden_ = true;
    if ((changed || c.mustInstall) && !c.install()) ++failures_;
  }
  void failure(profile::Failure f) override {
    ++failures_;
    std::fprintf(stderr, "dragnet: tagfield: %s not rewritten: %s\n", f.cls.c_str(),
                 f.reason.c_str());
  }
  bool vmInit(JNIEnv*, jthread) override { return false; }
  void flush(JNIEnv*) override {}
  std::string vmDeath(JNIEnv*) override {
    std::string line = std::to_string(added_.load()) + " tag fields, reflection filter " +
                       (hidden_ ? "rewritten" : "unchanged") + ", " +
                       std::to_string(failures_.load()) + " failures";
    if (!hidden_) host_->say("warning: the reflection filter was not rewritten");
    return line;
  }

 private:
  agent::Host* host_ = nullptr;
  flow::DenyPredicate denied_ = flow::isDeniedTagClass;
  std::atomic<bool> hidden_{false};
  std::atomic<uint64_t> added_{0}, failures_{0};
};

std::unique_ptr<agent::Mode> make() { return std::make_unique<Mode>(); }

}  // namespace

agent::ModeInfo mode() { return {"tagfield", false, make}; }

const options::Table& optionTable() {
  static const options::Table table{
      .title = "mode tagfield",
      .modes = {"tagfield"},
      .about = "adds the flow engine's object-tag field to every root class, nothing else",
      .options = {{.name = "deny",
                   .kind = options::Kind::Choice,
                   .def = "list",
                   .help = "the classes denied the field: the flow engine's list, or only "
                           "java/lang/Object",
                   .choices = {"list", "object"}}}};
  return table;
}

}  // namespace dragnet::test::tagfield
