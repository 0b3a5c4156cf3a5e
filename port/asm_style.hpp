// port-asm --style=asm: an asm statement rewritten as AMDGPU inline asm,
// the rule table's instructions for each target, with GNU constraints for
// AMD ("v" for a 32- or 64-bit VGPR value, "=&v" for the rules'
// temporaries, a "vcc" clobber where a carry runs inside the statement).
// Targets whose text differs get their own branch (#if defined(__gfx942__)
// ... #elif ... #else #error); each target's sequence is proved equal to
// the PTX like the C++ (its instructions' spellings evaluate as their
// semantics: amd_op_cxx.hpp).
//
// What inline asm cannot name is refused with the reason: a lane mask or
// predicate (an SGPR whose width follows the wave size), one half of a
// 64-bit value, a register pair made of two values, and the carry flag
// between statements.
#pragma once

#include "grammar/ast.hpp"
#include "port/asm_snippet.hpp"
#include "port/inline_asm_scanner.hpp"

#include <string>

namespace p2a::cost {
class CostModel;
}

namespace p2a::port {

struct AsmStyleResult {
  std::string block; // "{ ... }" lines joined by '\n' (unindented), or empty on error
  bool perTarget = false; // the text differs by target (#if branches inside)
  std::string error;
};

AsmStyleResult asmStyleFor(const AsmStatement &st, const AsmSnippet &sn, const ::ptx::ast::Block &body,
                           cost::CostModel &costs);

} // namespace p2a::port
