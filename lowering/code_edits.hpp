// Instructions a pass over the laid-out code adds and drops, applied to the
// code in place. The passes after layout (waits, hazards, s_delay_alu) used
// to move every instruction into a new list: the old and the new one side by
// side were a big kernel's peak (KeyHunt's 80k-statement kernels: 400k
// instructions, 29 MB a list). They now record what changes, a small list,
// and apply it to the one they were given.
#pragma once

#include "isel/machine_ir.hpp"

#include <utility>
#include <vector>

namespace p2a::klower {

class CodeEdits {
public:
  // `ci` goes before instruction `at` of the code as it was (at == size: at
  // the end); added in order of `at`, several at one place in the order
  // added. Returns its number, for patch().
  size_t insertBefore(size_t at, mir::CodeInst ci) {
    inserted_.push_back({at, std::move(ci)});
    return inserted_.size() - 1;
  }
  // An instruction added earlier, to change before it is applied.
  mir::CodeInst &patch(size_t inserted) { return inserted_[inserted].second; }
  // Instruction `at` goes (what was inserted before it stays there); in
  // increasing order.
  void remove(size_t at) { removed_.push_back(at); }

  // The code with the edits made: each instruction moved once, the list
  // grown once (in its capacity where it has room).
  void apply(std::vector<mir::CodeInst> &code);

private:
  std::vector<std::pair<size_t, mir::CodeInst>> inserted_;
  std::vector<size_t> removed_;
};

} // namespace p2a::klower
