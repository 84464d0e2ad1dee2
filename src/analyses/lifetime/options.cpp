#include "analyses/lifetime/options.h"

namespace dragnet::analyses::lifetime {
namespace {

using options::Kind;

// The gc-budget default: forced collections may take a quarter of the run's time, unless
// the user set gc-interval (then every interval is kept, as HUP did: 100).
constexpr uint64_t kEveryInterval = 100;

bool check(options::Values& v, std::string& error) {
  if (v.number("sample") > 0 && v.on("use-contexts")) {
    error = "option '" + v["use-contexts"].spelling +
            "' is not available with 'sample' in mode lifetime yet";
    return false;
  }
  if (!v.given("gc-budget") && v.given("gc-interval")) v.at("gc-budget").number = kEveryInterval;
  return true;
}

}  // namespace

const options::Table& optionTable() {
  static const options::Table table{
      .title = "mode lifetime",
      .modes = {"lifetime"},
      .about =
          "every object's lifetime (HUP: lag, drag, void and use), with the allocation "
          "profile",
      .options = {{.name = "gc-interval",
                   .kind = Kind::Size,
                   .def = "8m",
                   .help = "force a collection every SIZE bytes of allocation, the precision of "
                           "death times",
                   .meta = "gc.interval",
                   .flag = "--gc-interval"},
                  {.name = "gc-budget",
                   .kind = Kind::Percent,
                   .def = "25",
                   .help =
                       "force collections only as often as they take at most PERCENT of the "
                       "run's time (after one that took T, wait T x (100 - PERCENT) / PERCENT), "
                       "so that large heaps do not stall the run; the report gives the precision "
                       "reached; 100 = every interval",
                   .meta = "gc.budget",
                   .flag = "--gc-budget",
                   .note = "100 with gc-interval"},
                  {.name = "use-epoch",
                   .kind = Kind::PowerOfTwo,
                   .def = "64k",
                   .help = "a thread records its first use of an object in every SIZE bytes of "
                           "allocation, the precision of last uses; a power of two",
                   .meta = "use.epoch",
                   .flag = "--use-epoch"},
                  {.name = "use-contexts",
                   .kind = Kind::OnOff,
                   .def = "off",
                   .help = "record the calling contexts where first and last uses happen (lifetime "
                           "patterns)",
                   .meta = "stacks",
                   .flag = "--use-contexts",
                   .aliases = {"stacks"}},
                  {.name = "site-frames",
                   .kind = Kind::Number,
                   .def = "8",
                   .help =
                       "method frames of a nested allocation site, the grouping the reports use; "
                       "contexts are recorded up to `depth` either way",
                   .meta = "stack",
                   .flag = "--site-frames",
                   .note = "0: no limit",
                   .aliases = {"stack"}}},
      .notes = {{"sample",
                 "lifetimes of the sampled objects only, through use probes that "
                 "cost little for the others"}},
      .check = check};
  return table;
}

OptionValues optionValues(const options::Values& v) {
  return {.gcInterval = v.number("gc-interval"),
          .gcBudget = static_cast<uint32_t>(v.number("gc-budget")),
          .useEpoch = v.number("use-epoch"),
          .useContexts = v.on("use-contexts"),
          .siteFrames = static_cast<uint32_t>(v.number("site-frames"))};
}

}  // namespace dragnet::analyses::lifetime
