#include "toy_mode.h"

#include <atomic>

#include "agent/contexts_mode.h"

namespace dragnet::test::toy {
namespace {

using instrument::Routine;

class Extension final : public contexts::Extension {
 public:
  explicit Extension(std::atomic<uint64_t>& probes) : probes_(probes) {}

  uint32_t methodId(Routine&, uint32_t id) override { return id; }
  bool needsFrame(Routine& r) override { return counted(r); }
  bool leafEntry(Routine&, uint32_t) override { return false; }
  const char* receiverEnter(Routine&) override { return nullptr; }
  bool site(Routine&, const instrument::Instruction&, uint32_t, uint16_t) override { return false; }
  void method(Routine& r, uint16_t) override {
    if (counted(r) && r.atEntry(instrument::Call{"ToyOracle", "hit", {}})) ++probes_;
  }
  void unframed(Routine&) override {}
  bool lighten(Routine&, std::string&) override { return false; }

 private:
  static bool counted(const Routine& r) {
    return r.className() == "ToyOracle" && r.name().starts_with("counted");
  }
  std::atomic<uint64_t>& probes_;
};

class Mode final : public agent::ContextsMode {
 protected:
  contexts::ClassResult instrument(classfile::ClassFile& cls, contexts::IdSource& ids,
                                   bool bytecodes) override {
    Extension toy(probes_);
    return contexts::instrumentClass(cls, ids, {.bytecodes = bytecodes, .extensions = {&toy}});
  }
  std::string finish(JNIEnv*, std::map<std::string, std::string>& totals) override {
    totals["toy.probes"] = std::to_string(probes_.load());
    return std::to_string(probes_.load()) + " toy probes";
  }

 private:
  std::atomic<uint64_t> probes_{0};
};

std::unique_ptr<agent::Mode> make() { return std::make_unique<Mode>(); }

}  // namespace

agent::ModeInfo mode() { return {"toy", false, make}; }

const options::Table& optionTable() {
  static const options::Table table{.title = "mode toy",
                                    .modes = {"toy"},
                                    .about = "alloc's counts and calls of ToyOracle.hit()"};
  return table;
}

}  // namespace dragnet::test::toy
