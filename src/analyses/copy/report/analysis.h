// Mode copy as the dragnet command sees it (report/analysis.h): its profiles in text and
// JSON.
#pragma once

#include "report/analysis.h"

namespace dragnet::analyses::copy {

report::Analysis reports();

}  // namespace dragnet::analyses::copy
