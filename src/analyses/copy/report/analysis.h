// Mode copy as the dragnet command sees it (report/analysis.h): its profiles in text, JSON
// and HTML, its shell (`dragnet shell`) and tables (`dragnet export --sqlite`).
#pragma once

#include "report/analysis.h"

namespace dragnet::analyses::copy {

report::Analysis reports();

}  // namespace dragnet::analyses::copy
