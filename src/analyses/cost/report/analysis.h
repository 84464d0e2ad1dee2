// Mode cost as the dragnet command sees it (report/analysis.h): its profiles in text, JSON
// and HTML, its shell (`dragnet shell`) and tables (`dragnet export --sqlite`), and its
// report options (consumer-rab, height). These entry points load the profile's graph
// (model/load.h); everything under them takes the model.
#pragma once

#include "report/analysis.h"

namespace dragnet::analyses::cost {

report::Analysis reports();

}  // namespace dragnet::analyses::cost
