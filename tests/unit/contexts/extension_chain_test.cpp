// Several analyses' extensions in one rewrite (contexts::Options::extensions): each is asked
// in order, with Extension's rules for sharing a method; classes made with the class-file
// library.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "alloc_test_support.h"

namespace dragnet::test::hard::alloc_case {
namespace {

using instrument::Call;
using instrument::Routine;

// An extension that logs what it is asked and adds a call of its own class's hit() at the
// entry of every framed method; it takes leaf entries and array sites if told to.
class Logging final : public alloc::Extension {
 public:
  Logging(std::string name, std::vector<std::string>& log, uint32_t idBit, bool takes)
      : name_(std::move(name)), log_(log), idBit_(idBit), takes_(takes) {}

  uint32_t methodId(Routine& r, uint32_t id) override {
    log_.push_back(name_ + " id " + std::string(r.name()));
    return id | idBit_;
  }
  bool needsFrame(Routine&) override { return false; }
  bool leafEntry(Routine& r, uint32_t methodId) override {
    log_.push_back(name_ + " leaf " + std::to_string(methodId));
    if (takes_) r.atEntry(Call{owner(), "leaf", {}});
    return takes_;
  }
  const char* receiverEnter(Routine&) override { return nullptr; }
  bool site(Routine& r, const instrument::Instruction& in, uint32_t, uint16_t) override {
    log_.push_back(name_ + " site " + std::string(r.name()));
    if (takes_) r.before(in.index, Call{owner(), "site", {}});
    return takes_;
  }
  void method(Routine& r, uint16_t) override {
    log_.push_back(name_ + " method " + std::string(r.name()));
    r.atEntry(Call{owner(), "hit", {}});
  }
  void unframed(Routine&) override {}
  bool lighten(Routine&, std::string&) override { return false; }

 private:
  const char* owner() const { return name_ == "A" ? "p/A" : "p/B"; }
  std::string name_;
  std::vector<std::string>& log_;
  uint32_t idBit_;
  bool takes_;
};

Bytes twoMethods() {
  ModelBuilder m("p/C");
  define(m, "leaf", "()I", {insn(Op::iconst_1), insn(Op::ireturn)});
  // new int[3]: an array site, and a frame.
  define(m, "make", "()[I", {insn(Op::iconst_3), insn(Op::newarray, 10), insn(Op::areturn)});
  return writeModel(m);
}

TEST(ExtensionChain, EveryExtensionRunsInOneRewriteInItsOrder) {
  std::vector<std::string> log;
  Logging a("A", log, 1u << 20, false), b("B", log, 1u << 21, true);
  alloc::IdSource ids;
  Bytes original = twoMethods();  // the parsed class refers into it
  auto parsed = cf::parseClass(original, {"p/C"});
  ASSERT_TRUE(parsed);
  alloc::ClassResult r = alloc::instrumentClass(parsed.value(), ids, {.extensions = {&a, &b}});
  ASSERT_TRUE(r.changed);
  // Ids go through A, then B; A is asked first for the leaf and the site, B takes both; both
  // add to the framed method, A first.
  uint32_t both = (1u << 20) | (1u << 21);
  EXPECT_EQ(log, (std::vector<std::string>{
                     "A id leaf", "B id leaf", "A leaf " + std::to_string(1 | both),
                     "B leaf " + std::to_string(1 | both), "A id make", "B id make", "A site make",
                     "B site make", "A method make", "B method make"}));
  ASSERT_EQ(r.methods.size(), 2u);
  EXPECT_EQ(r.methods[0].id, 1 | both);
  EXPECT_EQ(r.methods[1].id, 2 | both);
  auto out = cf::writeClass(parsed.value());
  ASSERT_TRUE(out);
  auto back = cf::parseClass(out.value(), {"p/C"});
  ASSERT_TRUE(back);
  // The leaf: B's entry call instead of DragnetRt.leaf.
  EXPECT_EQ(listing(back.value(), "leaf"),
            (Lines{"invokestatic p/B.leaf()V", "iconst_1", "ireturn"}));
  Lines make = listing(back.value(), "make");
  auto at = [&](const std::string& line) {
    return std::find(make.begin(), make.end(), line) - make.begin();
  };
  ASSERT_LT(at("invokestatic p/A.hit()V"), static_cast<long>(make.size()));
  EXPECT_LT(at("invokestatic p/A.hit()V"), at("invokestatic p/B.hit()V"));
  EXPECT_LT(at("invokestatic p/B.site()V"), at("newarray int"));
  // B took the array site: the base's array probe is not there.
  EXPECT_EQ(std::count(make.begin(), make.end(), rt("array(ILjava/lang/DragnetState;I)I")), 0);
}

TEST(ExtensionChain, NoExtensionIsTheBaseAlone) {
  alloc::IdSource ids;
  Bytes original = twoMethods();  // the parsed class refers into it
  auto parsed = cf::parseClass(original, {"p/C"});
  ASSERT_TRUE(parsed);
  alloc::ClassResult r = alloc::instrumentClass(parsed.value(), ids, {});
  ASSERT_EQ(r.methods.size(), 2u);
  EXPECT_EQ(r.methods[0].id, 1u);
  auto out = cf::writeClass(parsed.value());
  ASSERT_TRUE(out);
  auto back = cf::parseClass(out.value(), {"p/C"});
  ASSERT_TRUE(back);
  EXPECT_EQ(listing(back.value(), "leaf")[1], rt("leaf(I)V"));
}

}  // namespace
}  // namespace dragnet::test::hard::alloc_case
