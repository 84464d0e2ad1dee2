#include "analyses/copy/options.h"

namespace dragnet::analyses::copy {
namespace {

using options::Kind;

constexpr uint64_t kMaxSlots = 32;

bool check(options::Values& v, std::string& error) {
  if (v.number("sample") > 0) {
    error = "mode copy has no sampled variant";
    return false;
  }
  if (v.number("slots") > kMaxSlots) {
    error = "option '" + v["slots"].spelling + "' must be at most 32";
    return false;
  }
  return true;
}

}  // namespace

const options::Table& optionTable() {
  static const options::Table table{
      .title = "mode copy",
      .modes = {"copy"},
      .about =
          "copy profiling (Xu et al.): which data is copied from one heap location to "
          "another, along which chains, how often, and which objects only carry it",
      .options = {},  // slots: the flow modes' table (flow/options.h)
      .check = check,
      // The tag field in every object of a root class (flow/tag_field.h).
      .heapGrowth = 1.25};
  return table;
}

OptionValues optionValues(const options::Values& v) {
  return {.slots = static_cast<uint32_t>(v.number("slots"))};
}

}  // namespace dragnet::analyses::copy
