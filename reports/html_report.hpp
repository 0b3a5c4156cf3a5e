// The side-by-side report (--report=FILE.html): one self-contained page (no
// scripts, fonts or images from elsewhere) with each PTX line beside the AMD
// instructions it became, the rule that produced them and its cost, the
// rule's restriction on hover, per-function register use, rule counts, and
// every error highlighted on its line.
#pragma once

#include "driver/batch.hpp"

#include <string>

namespace p2a::report {

// `files` must come from a batch run with Options::keepResults.
std::string renderHtml(const batch::Summary &summary, const targets::TargetInfo &t);

} // namespace p2a::report
