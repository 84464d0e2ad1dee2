// Mode copy's class layouts in the model: an instance clone record is one copy per instance
// field of the class (its superclasses' too), bytes by each field's type, and the clones
// counted per context are those copies in the flat and cumulative profiles; a field named
// through a subclass is the declaring class's field node.
#include <gtest/gtest.h>

#include <filesystem>

#include "analyses/copy/model/model.h"
#include "fig6_profile.h"
#include "profile/writer.h"

namespace fs = std::filesystem;

namespace dragnet::analyses::copy {
namespace {

using namespace profile;

// Fields: Base declares x (I) and ref (Object), Pt extends Base and declares y (J) and b
// (Z); references name Base.x through Pt (kPtX) and Sub (kSubX, Sub extends Pt, no fields
// of its own), and fields of classes without a layout or of no class on the chain.
enum : uint32_t {
  kX = 2,
  kRef = 3,
  kY = 4,
  kB = 5,
  kPtX = 6,
  kSubX = 7,
  kUnknownOwner = 8,
  kUndeclared = 9,
  kStaticOfPt = 10,
};
// Sites: 5 `new Pt` in run(); the copies of Pt.copy's super.clone() (a dynamic site of the
// runtime class Pt, as the agent names it); 8 and 9 objects of a class without a layout;
// 11 a site the profile does not define.
constexpr uint32_t kPtSite = 5, kCopySite = (1u << 27) - 1, kNoLayout = 8, kNoLayoutCopy = 9,
                   kUndefinedSite = 11;
constexpr uint32_t kRun = 1, kCopy = 2;

uint32_t tag(uint32_t site, uint32_t slot) { return slot << kTagSiteBits | site; }
uint64_t obj(uint32_t site, uint32_t slot, uint32_t field) {
  return flowNode(FlowKind::Object, field, tag(site, slot));
}
uint64_t cloned(uint32_t site, uint32_t slot) {
  return flowNode(FlowKind::Consumer, kClonedField, tag(site, slot));
}
uint32_t key(uint32_t site) { return kAllocBit | site << 4; }  // element kind 0: objects

class CloneRecords : public test::copy::WrittenProfileTest {
 protected:
  void SetUp() override {
    dir_ = test::copy::freshDir();
    fs::path path = dir_ / "clones.dragnet";
    Writer w;
    std::string error;
    ASSERT_TRUE(w.open(path.string(), error)) << error;
    w.meta({{"mode", "copy"}, {"flow.slots", "2"}, {"flow.refBytes", "4"}});
    w.methods({{kRun, "app/Main", "run", "()V", "Main.java"},
               {kCopy, "app/Pt", "copy", "()Lapp/Pt;", "Pt.java"}});
    w.sites({{key(kPtSite), kRun, 3, 10, SiteKind::New, "app/Pt"},
             {key(kCopySite), kCopy, 1, 20, SiteKind::Clone, "app/Pt"},
             {key(kNoLayout), kRun, 7, 11, SiteKind::New, "app/Opaque"},
             {key(kNoLayoutCopy), kRun, 9, 12, SiteKind::Clone, "app/Opaque"}});
    w.flowDefs({{kX, "app/Base", "x", "I", false},
                {kRef, "app/Base", "ref", "Ljava/lang/Object;", false},
                {kY, "app/Pt", "y", "J", false},
                {kB, "app/Pt", "b", "Z", false},
                {kPtX, "app/Pt", "x", "I", false},
                {kSubX, "app/Sub", "x", "I", false},
                {kUnknownOwner, "app/Elsewhere", "x", "I", false},
                {kUndeclared, "app/Pt", "z", "I", false},
                {kStaticOfPt, "app/Pt", "x", "I", true}},
               {},
               {{"app/Pt", "app/Base", {kY, kB}},
                {"app/Base", "java/lang/Object", {kX, kRef}},
                {"app/Sub", "app/Pt", {}}});
    ThreadChunk t;
    t.thread = 1;
    t.name = "main";
    t.firstNode = 1;
    t.nodes = {{0, kRun}, {1, kCopy}};
    t.counters = {{1, {1, 0, 0, 0}}, {2, {3, 0, 0, 0}}};
    w.thread(t);
    const uint64_t c = flowNode(FlowKind::Consumer, 0, 0);
    FlowThreadChunk f;
    f.thread = 1;
    f.edges = {
        {obj(kPtSite, 0, 0), cloned(kCopySite, 1), 3},  // three clones of O5 into O(copy)
        {obj(kCopySite, 1, kPtX), c, 1},                // getfield Pt.x of the copy
        {obj(kPtSite, 0, kX), c, 2},                    // getfield Base.x of the original
        {obj(kPtSite, 0, kSubX), c, 5},                 // ... and Sub.x
        {obj(kPtSite, 0, kUnknownOwner), c, 1},
        {obj(kPtSite, 0, kUndeclared), c, 1},
        {obj(kPtSite, 0, kB), cloned(kCopySite, 0), 1},       // from a field: no clone
        {obj(kNoLayout, 0, 0), cloned(kNoLayoutCopy, 0), 4},  // no layout: dropped
        {obj(kPtSite, 1, 0), cloned(kUndefinedSite, 0), 2},   // the original's class
    };
    f.copies = {{1, 5}};
    f.clones = {{2, kCopySite, 3}, {1, kNoLayoutCopy, 4}, {1, kUndefinedSite, 2}};
    w.flowThread(f);
    w.end({});
    w.close();
    profile_ = test::copy::readProfile(path);
  }
};

using test::copy::fieldNode;

TEST_F(CloneRecords, LayoutsGiveDeclaredFieldsAndInstanceFields) {
  Layouts l(profile_);
  EXPECT_EQ(l.canonical(kPtX), kX);
  EXPECT_EQ(l.canonical(kSubX), kX);
  EXPECT_EQ(l.canonical(kX), kX);
  EXPECT_EQ(l.canonical(kY), kY);
  EXPECT_EQ(l.canonical(kUnknownOwner), kUnknownOwner);
  EXPECT_EQ(l.canonical(kUndeclared), kUndeclared);
  EXPECT_EQ(l.canonical(kStaticOfPt), kStaticOfPt);  // statics are not instance fields
  ASSERT_NE(l.instanceFields("app/Pt"), nullptr);
  EXPECT_EQ(*l.instanceFields("app/Pt"), (std::vector<uint32_t>{kX, kRef, kY, kB}));
  EXPECT_EQ(*l.instanceFields("app/Sub"), (std::vector<uint32_t>{kX, kRef, kY, kB}));
  EXPECT_EQ(*l.instanceFields("app/Base"), (std::vector<uint32_t>{kX, kRef}));
  EXPECT_EQ(l.instanceFields("app/Opaque"), nullptr);
}

TEST_F(CloneRecords, ACloneRecordIsOneCopyPerInstanceField) {
  Model m = buildModel(profile_);
  using P = std::pair<uint64_t, uint32_t>;
  auto edge = [&](const Graph& g, const Node& a, const Node& b) {
    uint32_t from = g.find(a), to = g.find(b);
    const Edge* e = from == kNoNode || to == kNoNode ? nullptr : g.edge(from, to);
    return e ? P{e->freq, e->bytes} : P{0, 0};
  };
  const Node c{NodeKind::Consumer, {}, 0};
  const Graph& cs = m.sensitive.graph;
  EXPECT_EQ(edge(cs, fieldNode(kPtSite, 0, kX), fieldNode(kCopySite, 1, kX)), (P{3, 4}));
  EXPECT_EQ(edge(cs, fieldNode(kPtSite, 0, kRef), fieldNode(kCopySite, 1, kRef)), (P{3, 4}));
  EXPECT_EQ(edge(cs, fieldNode(kPtSite, 0, kY), fieldNode(kCopySite, 1, kY)), (P{3, 8}));
  EXPECT_EQ(edge(cs, fieldNode(kPtSite, 0, kB), fieldNode(kCopySite, 1, kB)), (P{3, 1}));
  // Not an edge to C: the record's dst is the copy, not a consumer.
  EXPECT_EQ(edge(cs, {NodeKind::Alloc, {kPtSite, 0}, 0}, c), (P{0, 0}));
  ASSERT_NE(cs.allocOf({kPtSite, 0}), kNoNode);
  EXPECT_EQ(cs.out(cs.allocOf({kPtSite, 0})).size(), 0u);
  // The copy is its own tag's object (a NATH candidate: it has no edge to the heap).
  EXPECT_NE(cs.allocOf({kCopySite, 1}), kNoNode);
  // The copy's site not defined: the original's class gives the fields.
  EXPECT_EQ(edge(cs, fieldNode(kPtSite, 1, kY), fieldNode(kUndefinedSite, 0, kY)), (P{2, 8}));
  EXPECT_EQ(edge(cs, fieldNode(kPtSite, 1, kX), fieldNode(kUndefinedSite, 0, kX)), (P{2, 4}));
  // Dropped: a clone record from a field, one of a class without a layout.
  EXPECT_EQ(m.graphStats.dropped, 2u);
  EXPECT_EQ(cs.find(fieldNode(kNoLayout, 0, kX)), kNoNode);
  const Graph& ci = m.insensitive.graph;
  EXPECT_EQ(edge(ci, fieldNode(kPtSite, 0, kY), fieldNode(kCopySite, 0, kY)), (P{3, 8}));
  EXPECT_EQ(edge(ci, fieldNode(kPtSite, 0, kY), fieldNode(kUndefinedSite, 0, kY)), (P{2, 8}));
  // 4 fields x 3 clones, 4 fields x 2 clones.
  EXPECT_EQ(m.totals.heapCopies, 20u);
}

TEST_F(CloneRecords, AFieldNamedThroughASubclassIsOneNode) {
  Model m = buildModel(profile_);
  const Node c{NodeKind::Consumer, {}, 0};
  for (const Graph* g : {&m.sensitive.graph, &m.insensitive.graph}) {
    uint32_t ctx = g == &m.sensitive.graph ? 1 : 0;
    // Pt.x, Sub.x and Base.x of the original: one node, 2 + 5 reads.
    ASSERT_NE(g->find(fieldNode(kPtSite, 0, kX)), kNoNode);
    const Edge* e = g->edge(g->find(fieldNode(kPtSite, 0, kX)), kConsumer);
    ASSERT_NE(e, nullptr);
    EXPECT_EQ(e->freq, 7u);
    EXPECT_EQ(g->find(fieldNode(kPtSite, 0, kSubX)), kNoNode);
    // The copy's x read through Pt.x is the node the clone copied into.
    EXPECT_EQ(g->find(fieldNode(kCopySite, ctx, kPtX)), kNoNode);
    ASSERT_NE(g->find(fieldNode(kCopySite, ctx, kX)), kNoNode);
    const Edge* read = g->edge(g->find(fieldNode(kCopySite, ctx, kX)), g->find(c));
    ASSERT_NE(read, nullptr);
    EXPECT_EQ(read->freq, 1u);
    // References the layouts cannot resolve keep their ids.
    EXPECT_NE(g->find(fieldNode(kPtSite, 0, kUnknownOwner)), kNoNode);
    EXPECT_NE(g->find(fieldNode(kPtSite, 0, kUndeclared)), kNoNode);
  }
  EXPECT_EQ(nodeName(m, m.insensitive.graph, m.insensitive.graph.find(fieldNode(kPtSite, 0, kX))),
            "<app.Pt app.Main.run(Main.java:10)>.x");
}

TEST_F(CloneRecords, ClonesCountAsCopiesOfTheirContext) {
  Model m = buildModel(profile_);
  // Pt.copy (node 2): 3 clones of 4 fields. run (node 1): its own 5; the 4 clones of a
  // class without a layout and the 2 whose copies' site is not defined cannot be sized.
  EXPECT_EQ(m.copies.unsizedClones, 6u);
  EXPECT_EQ(m.copies.total, 17u);
  auto method = [&](uint32_t id) {
    for (const MethodCopies& mc : m.copies.methods) {
      if (mc.method == id) return mc;
    }
    return MethodCopies{};
  };
  EXPECT_EQ(method(kCopy).self, 12u);
  EXPECT_EQ(method(kCopy).total, 12u);
  EXPECT_EQ(method(kRun).self, 5u);
  EXPECT_EQ(method(kRun).total, 17u);
}

}  // namespace
}  // namespace dragnet::analyses::copy
