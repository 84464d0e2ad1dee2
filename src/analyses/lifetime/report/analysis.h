// Mode lifetime as the dragnet command sees it (report/analysis.h): its profiles in text,
// JSON and HTML, and its commands, `dragnet shell` and `dragnet export`.
#pragma once

#include "report/analysis.h"

namespace dragnet::analyses::lifetime {

report::Analysis reports();

}  // namespace dragnet::analyses::lifetime
