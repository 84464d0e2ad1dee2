#include "analyses/alloc/options.h"

namespace dragnet::analyses::alloc {

const options::Table& optionTable() {
  static const options::Table table{
      .title = "mode alloc",
      .modes = {"alloc"},
      .about = "exact allocation profile per calling context",
      .options =
          {{.name = "caller-lines",
            .kind = options::Kind::OnOff,
            .def = "off",
            .help = "exact mode: give each caller frame the line of its call (a call-site number "
                    "is passed at run time where a method calls the same methods on "
                    "several lines, or through an interface or a method handle: more "
                    "CPU, a larger profile); off: callers without lines. With sample, "
                    "callers' lines are always recorded, at no cost",
            .flag = "--caller-lines"}},
      .notes = {{"sample", "no rewriting"}}};
  return table;
}

OptionValues optionValues(const options::Values& v) {
  return {.callerLines = v.on("caller-lines")};
}

}  // namespace dragnet::analyses::alloc
