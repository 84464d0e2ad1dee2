#include "analyses/cost/options.h"

namespace dragnet::analyses::cost {
namespace {

using options::Kind;

constexpr uint64_t kMaxSlots = 32;

bool check(options::Values& v, std::string& error) {
  if (v.number("sample") > 0) {
    error = "mode cost has no sampled variant";
    return false;
  }
  uint64_t slots = v.number("slots");
  if (slots < 1 || slots > kMaxSlots) {
    error = "option '" + v["slots"].spelling + "' must be between 1 and 32";
    return false;
  }
  return true;
}

}  // namespace

const options::Table& optionTable() {
  static const options::Table table{
      .title = "mode cost",
      .modes = {"cost"},
      .about =
          "cost-benefit analysis (Xu et al.): data structures that cost far more to "
          "build than they are worth to the program",
      // slots: the flow modes' table (flow/options.h)
      .options = {{.name = "array-shadow",
                   .kind = Kind::Choice,
                   .def = "element",
                   .help = "the heap shadows of arrays: element keeps the node that wrote each "
                           "element last (the paper's shadow heap; native memory, at most half "
                           "of max-memory, past it an array keeps one shadow), array one per "
                           "array (a load of any element depends on the array's last store)",
                   .meta = "cost.arrayShadow",
                   .flag = "--array-shadow",
                   .choices = {"element", "array"}}},
      .check = check,
      // The tag and a shadow int beside every instance field (flow/heap_shadows.h): above
      // the suite's largest growth of the live set (docs/PERFORMANCE.md, "Modes copy and cost").
      .heapGrowth = 2.0};
  return table;
}

OptionValues optionValues(const options::Values& v) {
  return {.slots = static_cast<uint32_t>(v.number("slots")),
          .elementShadows = v.text("array-shadow") != "array",
          .maxMemory = v.number("max-memory")};
}

}  // namespace dragnet::analyses::cost
