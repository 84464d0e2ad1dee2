// Mode alloc as the dragnet command sees it (report/analysis.h): any profile of the
// calling-context base, in every format.
#pragma once

#include "report/analysis.h"

namespace dragnet::analyses::alloc {

report::Analysis reports();

}  // namespace dragnet::analyses::alloc
