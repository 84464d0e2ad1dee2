#include "flow/options.h"

namespace dragnet::flow {

const options::Table& optionTable() {
  static const options::Table table{
      .title = "modes copy and cost",
      .modes = {"copy", "cost"},
      .about = "",
      .options = {{.name = "slots",
                   .kind = options::Kind::Number,
                   .def = "16",
                   .help = "contexts told apart per allocation site (mode copy: an object's "
                           "context is the allocation site of the receiver of the method that "
                           "allocated it) or per instruction (mode cost: a frame's context is "
                           "the chain of its receivers' allocation sites), hashed into this "
                           "many slots; 1 names them by site or instruction alone",
                   .meta = "flow.slots",
                   .flag = "--slots",
                   .note = "copy: 0 for exact contexts (tests), at most 32; cost: 1 to 32"}},
      .check = nullptr};
  return table;
}

}  // namespace dragnet::flow
