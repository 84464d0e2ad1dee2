// The lifetime demo (demo/lifetime, build/demo/lifetime-demo.jar) end to end: `dragnet run
// --mode lifetime` profiles the billing program and its --fixed version (HUP 3.1.1's
// transformations), and the profiles must show what was planted:
//   - the planted sites rank first: drag, the archived call batches (CallBatch.<init>'s
//     long[]); void, the never-read itemizations (BillingRun.bill's long[]) and December's
//     promotion index (PromotionIndex.<init>'s int[]); lag, the roaming rate card loaded at
//     start and first read at month end (RateCard.<init>'s long[]);
//   - the fix removes at least the planted lag, drag and void computed below from what the
//     program itself allocates (a lower bound: the JDK's allocations come on top);
//   - both print the same bill run.
// The runs use gc-interval 256k (a released object dies within 256 KB + 4 KB) and use-epoch
// 4k, so that the fixed run's deaths and last uses are close to exact; about 1 s each.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "analyses/lifetime/model/aggregate.h"
#include "oracle_jvms.h"
#include "profile/reader.h"

namespace fs = std::filesystem;
namespace lt = dragnet::analyses::lifetime;
using lt::DragPart;
using lt::Phase;
using lt::Space;

namespace {

// The program's sizes (demo/lifetime; JDK 17, 64 bits: an array has a 16-byte header).
constexpr uint64_t kCustomers = 2000;              // N
constexpr uint64_t kCalls = 8208;                  // S: a customer's long[1024] of calls
constexpr uint64_t kItemized = 8208;               // its long[1024] itemization (unfixed)
constexpr uint64_t kRateCard = 16 + 8 * 524288;    // R = 4,194,320: long[2^19]
constexpr uint64_t kPromotions = 16 + 4 * 262144;  // P = 1,048,592: int[2^18]
constexpr uint64_t kEpoch = 4096;                  // E: use-epoch of the runs
// K: the unfixed run allocates at least this much per customer (its calls and itemization).
constexpr uint64_t kPerCustomer = kCalls + kItemized;

// Planted lag: the rate card is allocated before the promotion index and every customer, and
// first read after them: lag >= R + P + N*K. The fixed run loads it right before its first
// read, where its lag is its own size R (time is bytes allocated; its bytes are on the clock
// from its allocation). Removed: R * (P + N*K) = 142,106,044,637,440.
constexpr Space plantedLag() {
  return Space{kRateCard} * (kPromotions + kCustomers * kPerCustomer);
}

// Planted void: customer i's itemization is never read and lives to the end: void >= its
// own size plus the (N-1-i) later customers' K; the promotion index is never read: void >=
// P + N*K. The fixed run allocates neither. Sum: 305,011,973,726,464.
constexpr Space plantedVoid() {
  Space v = Space{kPromotions} * (kPromotions + kCustomers * kPerCustomer);
  for (uint64_t i = 0; i < kCustomers; ++i) {
    v += Space{kItemized} * (kItemized + (kCustomers - 1 - i) * kPerCustomer);
  }
  return v;
}

// Planted drag: customer i's calls are last read while it is billed (its last use counts
// to the end of that use epoch, at most E later) and stay archived to the end, while the
// (N-1-i) later customers allocate K each: drag >= S * ((N-1-i)*K - E). The fixed run
// releases them once billed. Sum: 269,283,107,155,968.
constexpr Space plantedDrag() {
  Space d = 0;
  for (uint64_t i = 0; i < kCustomers; ++i) {
    uint64_t after = (kCustomers - 1 - i) * kPerCustomer;
    if (after > kEpoch) d += Space{kCalls} * (after - kEpoch);
  }
  return d;
}

static_assert(plantedLag() == Space{142106044637440ull});
static_assert(plantedVoid() == Space{305011973726464ull});
static_assert(plantedDrag() == Space{269283107155968ull});

constexpr const char* kPackage = "dragnet.demo.lifetime.";
// What both versions print (java.util.Random's sequence is specified: deterministic).
constexpr const char* kOutput =
    "billing run: month 11, 2000 customers\n"
    "home calls:  2600960.85 EUR\n"
    "roaming:     2164361.12 EUR\n"
    "audit:       2048000 calls\n"
    "largest:     customer 1477, 1383.46 EUR\n";

struct Profiled {
  dragnet::profile::Profile profile;
  lt::Model model;
  std::string output;
  fs::path file;  // the profile, kept if profileDemo was asked to (the caller removes it)
};

// Profiles the demo (with `args`) through the CLI into `r`; `options`: more for dragnet run;
// `keep`: the profile file stays (r.file) for reports through the CLI.
void profileDemo(const std::string& args, Profiled& r, const std::string& options = "",
                 bool keep = false) {
  fs::path work = fs::path(DRAGNET_BINARY_DIR) / "tests" / "demo";
  fs::create_directories(work);
  std::string tag = std::to_string(::getpid()) + (args.empty() ? "" : "-fixed");
  fs::path prof = work / ("lifetime-demo-" + tag + ".dragnet");
  fs::path out = work / ("lifetime-demo-" + tag + ".txt");
  std::string cmd = std::string("'") + DRAGNET_CLI +
                    "' run --mode lifetime --gc-interval 256k --use-epoch 4k --site-frames 4 " +
                    options + " --agent-opts quiet=on -o '" + prof.string() + "' -- java -jar '" +
                    DRAGNET_LIFETIME_DEMO_JAR + "' " + args + " > '" + out.string() + "'";
  ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
  r.output = dragnet::test::readFile(out);
  std::string error;
  ASSERT_TRUE(dragnet::profile::readProfile(prof.string(), r.profile, error)) << error;
  ASSERT_TRUE(r.profile.complete);
  r.model = lt::buildModel(r.profile);
  r.file = prof;
  if (!keep) fs::remove(prof);
  fs::remove(out);
}

// What `dragnet report FILE ARGS` writes to stdout.
std::string report(const fs::path& file, const std::string& args) {
  fs::path out = file.string() + ".report";
  std::string cmd = std::string("'") + DRAGNET_CLI + "' report '" + file.string() + "' " + args +
                    " > '" + out.string() + "'";
  EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
  std::string text = dragnet::test::readFile(out);
  fs::remove(out);
  return text;
}

// A space's decimal digits (the demo's spaces are below 2^64).
std::string digits(Space v) {
  EXPECT_EQ(v >> 64, Space{0});
  return std::to_string(static_cast<uint64_t>(v));
}

// The nested site ranked `rank` (0: first) by phase p: "type at method".
std::string rankedSite(const lt::Model& m, Phase p, size_t rank) {
  std::vector<uint32_t> top = lt::rankBy(m.nested, p, rank + 1);
  if (top.size() <= rank) return "(none)";
  const lt::NestedSite& s = m.nested[top[rank]];
  return lt::typeOf(m, s) + " at " + m.methods[s.method].name;
}

std::string rankedMethod(const lt::Model& m, Phase p) {
  std::vector<uint32_t> top = lt::rankBy(m.methods, p, 1);
  return top.empty() ? "(none)" : m.methods[top[0]].name;
}

std::string in(const std::string& type, const std::string& method, const std::string& file) {
  return type + " at " + kPackage + method + "(" + file + ".java)";
}

const lt::NestedSite* siteAt(const lt::Model& m, const std::string& typeAtMethod) {
  for (const lt::NestedSite& s : m.nested) {
    if (lt::typeOf(m, s) + " at " + m.methods[s.method].name == typeAtMethod) return &s;
  }
  return nullptr;
}

TEST(LifetimeDemo, PlantedSitesRankFirstAndTheFixRemovesThem) {
  Profiled before, after;
  ASSERT_NO_FATAL_FAILURE(profileDemo("", before));
  ASSERT_NO_FATAL_FAILURE(profileDemo("--fixed", after));

  EXPECT_EQ(before.output, kOutput);
  EXPECT_EQ(after.output, before.output);

  // dragnet run's lifetime options reached the profile.
  for (const Profiled* r : {&before, &after}) {
    EXPECT_EQ(r->model.settings.gcInterval, 256u << 10);
    EXPECT_EQ(r->model.settings.useEpoch, kEpoch);
    EXPECT_EQ(r->model.settings.stack, 4u);
    for (const lt::NestedSite& s : r->model.nested) {
      EXPECT_LE(lt::nestedFrames(r->model, s).size(), 4u);
    }
  }

  const lt::Model& m = before.model;
  const std::string batches = in("long[]", "CallBatch.<init>", "CallBatch");
  const std::string itemized = in("long[]", "BillingRun.bill", "BillingRun");
  const std::string promotions = in("int[]", "PromotionIndex.<init>", "PromotionIndex");
  const std::string rateCard = in("long[]", "RateCard.<init>", "RateCard");
  EXPECT_EQ(rankedSite(m, Phase::Drag, 0), batches);
  EXPECT_EQ(rankedSite(m, Phase::Void, 0), itemized);
  EXPECT_EQ(rankedSite(m, Phase::Void, 1), promotions);
  EXPECT_EQ(rankedSite(m, Phase::Lag, 0), rateCard);
  EXPECT_EQ(rankedMethod(m, Phase::Drag),
            std::string(kPackage) + "CallBatch.<init>(CallBatch.java)");
  EXPECT_EQ(rankedMethod(m, Phase::Void),
            std::string(kPackage) + "BillingRun.bill(BillingRun.java)");
  EXPECT_EQ(rankedMethod(m, Phase::Lag), std::string(kPackage) + "RateCard.<init>(RateCard.java)");

  // The sizes the planted amounts assume, and each planted site holds at least its amount.
  const lt::NestedSite* b = siteAt(m, batches);
  const lt::NestedSite* i = siteAt(m, itemized);
  const lt::NestedSite* p = siteAt(m, promotions);
  const lt::NestedSite* c = siteAt(m, rateCard);
  ASSERT_TRUE(b && i && p && c);
  EXPECT_EQ(b->stats.objects, kCustomers);
  EXPECT_EQ(b->stats.bytes, kCustomers * kCalls);
  EXPECT_EQ(i->stats.bytes, kCustomers * kItemized);
  EXPECT_EQ(p->stats.bytes, kPromotions);
  EXPECT_EQ(c->stats.bytes, kRateCard);
  EXPECT_GE(b->stats[Phase::Drag], plantedDrag());
  EXPECT_GE(i->stats[Phase::Void] + p->stats[Phase::Void], plantedVoid());
  EXPECT_GE(c->stats[Phase::Lag], plantedLag() + Space{kRateCard} * kRateCard);

  // The fix: each total drops by at least its planted amount. (Measured on JDK 17: lag
  // 161.8 -> 18.3, drag 280.3 -> 5.1, void 314.6 -> 0.09, in 10^12 byte^2.)
  const lt::Stats& t0 = before.model.totals;
  const lt::Stats& t1 = after.model.totals;
  auto tera = [](Space s) { return lt::toDouble(s) / 1e12; };
  for (auto [phase, planted] :
       {std::pair{Phase::Lag, plantedLag()}, std::pair{Phase::Drag, plantedDrag()},
        std::pair{Phase::Void, plantedVoid()}}) {
    ASSERT_GE(t0[phase], t1[phase]) << lt::phaseName(phase);
    EXPECT_GE(t0[phase] - t1[phase], planted)
        << lt::phaseName(phase) << ": " << tera(t0[phase]) << " -> " << tera(t1[phase])
        << ", planted " << tera(planted) << " (10^12)";
  }
  // The fixed run has no itemizations and no promotion index, and loads the rate card lazily.
  EXPECT_EQ(siteAt(after.model, itemized), nullptr);
  EXPECT_EQ(lt::classByName(after.model, std::string(kPackage) + "PromotionIndex"), nullptr);
  const lt::ClassGroup* card = lt::classByName(after.model, std::string(kPackage) + "RateCard");
  ASSERT_NE(card, nullptr);
  EXPECT_EQ(card->stats.objects, 1u);
}

// What the reports make readable, on the same runs: every space also as the bytes it held
// on average (space / run length, exactly, in JSON; in MB in the text), drag split into
// actionable, below the death precision and until exit (the parts add up; the planted drag,
// call batches archived to the end and seen reachable by the forced GCs, is actionable; the
// fixed run's released batches die within a GC interval of their last use: theirs is below
// the death precision), and the collapsed flame graph of drag, whose heaviest stack is the planted
// site's whole context with its exact drag space (and of void, the itemizations').
TEST(LifetimeDemo, ReportsAverageBytesDragSplitAndFlameGraphs) {
  Profiled before, after;
  ASSERT_NO_FATAL_FAILURE(profileDemo("", before, "", true));
  ASSERT_NO_FATAL_FAILURE(profileDemo("--fixed", after, "", true));
  const lt::Model& m = before.model;
  const uint64_t run = m.endTime;
  ASSERT_GT(run, kCustomers * kPerCustomer);

  nlohmann::json j = nlohmann::json::parse(report(before.file, "-f json"));
  ASSERT_EQ(j["endTime"].get<uint64_t>(), run);
  const std::string text = report(before.file, "");
  for (Phase p : lt::kAllPhases) {
    const double average =
        static_cast<double>(static_cast<long double>(m.totals[p]) / static_cast<long double>(run));
    EXPECT_EQ(j["totals"]["averageBytes"][lt::phaseName(p)].get<double>(), average)
        << lt::phaseName(p);
    if (p != Phase::Drag && p != Phase::Void) continue;  // both hold megabytes
    char held[64];
    std::snprintf(held, sizeof held, " of the total space is %s; %.2f MB held on average\n",
                  lt::phaseName(p), average / (1 << 20));
    EXPECT_NE(text.find(held), std::string::npos) << held << "\n" << text.substr(0, 2000);
  }

  const std::string batches = in("long[]", "CallBatch.<init>", "CallBatch");
  for (const Profiled* r : {&before, &after}) {
    for (const lt::Stats* s : {&r->model.totals, &siteAt(r->model, batches)->stats}) {
      EXPECT_EQ(
          (*s)[DragPart::Actionable] + (*s)[DragPart::BelowPrecision] + (*s)[DragPart::UntilExit],
          (*s)[Phase::Drag]);
    }
  }
  EXPECT_GT(m.totals[DragPart::UntilExit], Space{0});  // the objects alive at the end
  EXPECT_EQ(j["totals"]["dragSpaceExact"]["actionable"].get<std::string>(),
            digits(m.totals[DragPart::Actionable]));
  // The batches stay reachable to the end: each one's drag after the last forced GC (at most
  // a GC interval and one allocation before the end) is until exit, the rest actionable.
  const lt::NestedSite* b = siteAt(m, batches);
  const Space gcSlack = Space{kCustomers} * kCalls * ((256u << 10) + (16u << 10));
  EXPECT_GE(b->stats[DragPart::Actionable], plantedDrag() - gcSlack);
  EXPECT_EQ(b->stats[DragPart::BelowPrecision], Space{0});
  // (A forced GC can fall between a batch's last read and its release, when growing the
  // invoice list crosses the threshold there: a few kilobytes of actionable drag at most.)
  const lt::NestedSite* fb = siteAt(after.model, batches);
  EXPECT_LT(fb->stats[DragPart::Actionable], plantedDrag() / 10000);
  EXPECT_EQ(fb->stats[DragPart::UntilExit], Space{0});
  EXPECT_GT(fb->stats[DragPart::BelowPrecision], Space{0});
  EXPECT_NE(text.find("actionable drag (reachable at a forced GC after the last use)"),
            std::string::npos);

  // The heaviest drag stack: main > bill > CallBatch.<init> at its `new long[]`, then the type.
  const std::string pkg = kPackage;
  std::string collapsed = report(before.file, "-f collapsed");
  EXPECT_EQ(collapsed.substr(0, collapsed.find('\n') + 1),
            pkg + "Billing.main(Billing.java);" + pkg + "BillingRun.bill(BillingRun.java);" + pkg +
                "CallBatch.<init>(CallBatch.java:15);long[] " + digits(b->stats[Phase::Drag]) +
                "\n");
  const lt::NestedSite* itemized = siteAt(m, in("long[]", "BillingRun.bill", "BillingRun"));
  std::vector<std::string> frames = lt::nestedFrames(m, *itemized);
  ASSERT_EQ(frames.size(), 2u);  // bill at its line, main
  collapsed = report(before.file, "-f collapsed --opt measure=void");
  EXPECT_EQ(collapsed.substr(0, collapsed.find('\n') + 1),
            frames[1] + ";" + frames[0] + ";long[] " + digits(itemized->stats[Phase::Void]) + "\n");
  fs::remove(before.file);
  fs::remove(after.file);
}

// The sampled variant (--sample 16k, about one object in 16 KB) on the same program, run
// from its jar: the same output, the same planted sites first, and the fix removes most of
// what was planted (the totals are estimates: each sampled object stands for the objects
// of its size the sampler skipped).
TEST(LifetimeDemo, SampledRanksThePlantedSitesFirst) {
  Profiled before, after;
  ASSERT_NO_FATAL_FAILURE(profileDemo("", before, "--sample 16k"));
  ASSERT_NO_FATAL_FAILURE(profileDemo("--fixed", after, "--sample 16k"));
  EXPECT_EQ(before.output, kOutput);
  EXPECT_EQ(after.output, kOutput);
  const lt::Model& m = before.model;
  EXPECT_EQ(m.settings.sample, 16u << 10);
  EXPECT_LT(before.profile.objects.size(), 20000u);  // a sample, not every object
  EXPECT_EQ(rankedSite(m, Phase::Drag, 0), in("long[]", "CallBatch.<init>", "CallBatch"));
  EXPECT_EQ(rankedSite(m, Phase::Lag, 0), in("long[]", "RateCard.<init>", "RateCard"));
  EXPECT_EQ(rankedMethod(m, Phase::Void),
            std::string(kPackage) + "BillingRun.bill(BillingRun.java)");
  const lt::Stats& t0 = before.model.totals;
  const lt::Stats& t1 = after.model.totals;
  for (auto [phase, planted] :
       {std::pair{Phase::Lag, plantedLag()}, std::pair{Phase::Drag, plantedDrag()},
        std::pair{Phase::Void, plantedVoid()}}) {
    ASSERT_GE(t0[phase], t1[phase]) << lt::phaseName(phase);
    EXPECT_GE(lt::toDouble(t0[phase] - t1[phase]), 0.8 * lt::toDouble(planted))
        << lt::phaseName(phase) << ": " << lt::toDouble(t0[phase]) / 1e12 << " -> "
        << lt::toDouble(t1[phase]) / 1e12 << ", planted " << lt::toDouble(planted) / 1e12;
  }
}

}  // namespace
