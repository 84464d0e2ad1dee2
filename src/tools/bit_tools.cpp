#include "tools/bit_tools.h"

#include <algorithm>
#include <array>
#include <charconv>

#include "common/embedded.h"
#include "instrument/stack_effect.h"

namespace dragnet::tools {

using instrument::Arg;
using instrument::Call;
using instrument::Routine;

bool BitTool::instrument(classfile::ClassFile& cls) {
  std::string_view n = cls.name();
  if (n.starts_with("dragnet/rt/") || n.starts_with("dragnet/tools/")) return false;
  instrument::ClassInstrumenter ci(cls);
  beginClass();
  for (Routine& r : ci.routines()) {
    if (!r.hasCode()) continue;
    size_t mark = table_.size();
    size_t sitesMark = sites_;
    int32_t idMark = nextId_;
    instrumentRoutine(r);
    instrument::EditOutcome o = r.commit();
    if (o.changed || o.reason == "no edits") continue;
    // The method stays as it was: its sites will never report, so drop them.
    table_.resize(mark);
    sites_ = sitesMark;
    nextId_ = idMark;
    unchanged_.push_back(std::string(n) + "." + std::string(r.name()) +
                         std::string(r.descriptor()) + ": " + o.reason);
  }
  return true;
}

int32_t BitTool::newSite(std::initializer_list<std::string_view> fields) {
  int32_t id = nextId_++;
  char buf[16];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, id);
  // The line's length first, then one resize and plain copies: a line per method, and one
  // append per piece costs more, on every method of every class a tool rewrites.
  size_t length = static_cast<size_t>(end - buf) + 1;
  for (std::string_view f : fields) length += 1 + f.size();
  size_t at = table_.size();
  table_.resize(at + length);
  char* out = table_.data() + at;
  out = std::copy(buf, end, out);
  for (std::string_view f : fields) {
    *out++ = '\t';
    out = std::copy(f.begin(), f.end(), out);
  }
  *out = '\n';
  ++sites_;
  return id;
}

std::vector<ExtraFile> BitTool::extraFiles() const {
  std::vector<ExtraFile> files;
  std::string table = "# dragnet " + std::string(name()) + " site table: id, then fields\n";
  table += table_;
  files.push_back({"META-INF/dragnet/" + std::string(name()) + ".sites",
                   std::vector<uint8_t>(table.begin(), table.end())});
  for (const EmbeddedFile& f : toolsRuntimeFiles()) {
    if (!f.path.ends_with(".class")) continue;
    files.push_back({std::string(f.path), std::vector<uint8_t>(f.bytes.begin(), f.bytes.end())});
  }
  return files;
}

namespace {

// Counts instructions at the start of every basic block: ICount.block(methodId, size).
class ICountTool final : public BitTool {
 public:
  using BitTool::BitTool;
  std::string_view name() const override { return "icount"; }

 private:
  Call call_{"dragnet/tools/ICount", "block", {Arg::i(0), Arg::i(0)}};  // its shape
  // Prepared once per class (the probes differ only in their constants): valid for the
  // routines of the class being instrumented only.
  std::optional<instrument::PreparedCall> prepared_;

 protected:
  void beginClass() override { prepared_.reset(); }
  void instrumentRoutine(Routine& r) override {
    int32_t id = newSite({r.className(), r.name(), r.descriptor()});
    // Its arguments are Int constants and it returns void, so prepare() accepts it.
    if (!prepared_) prepared_ = r.prepare(call_);
    if (!prepared_) return;
    for (const instrument::BasicBlock& b : r.blocks()) {
      const std::array<int32_t, 2> values{id, static_cast<int32_t>(b.size())};
      r.beforeBlock(b, *prepared_, values);
    }
  }
};

// Before every conditional branch: Branches.branch(outcome, siteId).
class BranchesTool final : public BitTool {
 public:
  using BitTool::BitTool;
  std::string_view name() const override { return "branches"; }

 private:
  Call call_{"dragnet/tools/Branches", "branch", {Arg::branchOutcome(), Arg::i(0)}};

 protected:
  void instrumentRoutine(Routine& r) override {
    for (const instrument::Instruction& in : r.instructions()) {
      if (!instrument::isConditionalBranch(in.op)) continue;
      std::string offset = std::to_string(in.offset);
      std::string line = in.line >= 0 ? std::to_string(in.line) : "?";
      int32_t id = newSite(
          {r.className(), r.name(), r.descriptor(), offset, line, classfile::opInfo(in.op).name});
      call_.args[1].value = id;
      r.before(in.index, call_);
    }
  }
};

}  // namespace

std::unique_ptr<BitTool> makeICount(int32_t idBase) { return std::make_unique<ICountTool>(idBase); }
std::unique_ptr<BitTool> makeBranches(int32_t idBase) {
  return std::make_unique<BranchesTool>(idBase);
}

}  // namespace dragnet::tools
