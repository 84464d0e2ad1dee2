// The analyses' option tables: one line per analysis (agent/options.h). The first one's
// mode is the default.
#include "agent/options.h"

#include "analyses/alloc/options.h"
#include "analyses/copy/options.h"
#include "analyses/cost/options.h"
#include "analyses/lifetime/options.h"
#include "flow/options.h"

namespace dragnet::agent {

options::Tables registeredOptionTables() {
  static const options::Table* const tables[] = {
      &analyses::alloc::optionTable(),
      &analyses::lifetime::optionTable(),
      &flow::optionTable(),
      &analyses::copy::optionTable(),
      &analyses::cost::optionTable(),
  };
  return tables;
}

}  // namespace dragnet::agent
