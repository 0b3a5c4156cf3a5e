// Our instruction count per PTX form beside LLVM 19 llc -O3's on the same
// semantics (bench/llc_compare generates llc's counts). Each form is
// translated as a single-instruction snippet with register operands through
// the full pipeline (parse, decode, select, allocate, MC check).
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace p2a::cost {
class CostModel;
}
namespace p2a::targets {
struct TargetInfo;
}

namespace p2a::compare {

struct Cell {
  int ours = -1;  // -1: could not translate (an error, shown as such)
  int llvm = -1;  // -1: no llc count
  std::string rule;
  std::string llvmFormulations; // "i64=3 select=6" where several were measured
};

struct FormRow {
  std::string form;           // "shf.l.wrap.b32" or "lop3.b32/0x96"
  std::vector<Cell> cells;    // per target
};

struct Comparison {
  std::string llvmVersion;
  std::vector<std::string> targets;
  std::vector<FormRow> rows;  // all forms, then the 256 lop3 LUTs
};

std::optional<Comparison> compareWithLlc(const std::string &llcCountsJson,
                                         const std::vector<const targets::TargetInfo *> &targets,
                                         cost::CostModel &costs, std::string &error);

// The PTX snippet used for a form (register operands; lop3 LUT from the name).
std::string snippetForForm(const std::string &form);

std::string formatMarkdown(const Comparison &c);
std::string formatJson(const Comparison &c);

} // namespace p2a::compare
