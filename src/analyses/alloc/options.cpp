#include "analyses/alloc/options.h"

namespace dragnet::analyses::alloc {

const options::Table& optionTable() {
  static const options::Table table{.title = "mode alloc",
                                    .modes = {"alloc"},
                                    .about = "exact allocation profile per calling context",
                                    .options = {},
                                    .notes = {{"sample", "no rewriting"}}};
  return table;
}

}  // namespace dragnet::analyses::alloc
