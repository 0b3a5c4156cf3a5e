// The proof that one ported asm statement computes what its PTX computes:
// the PTX side is the decoded statement run through the PTX semantics
// (semantics/ptx_semantics.cpp), the C++ side is the very expression trees
// printed (cxx_expr.hpp), evaluated with C++'s rules; both over the same
// symbolic inputs. Every output operand (in its width) and the carry flag
// left for the next statement must be equal, and every C++ operation
// defined, wherever the PTX ISA defines the result (its preconditions).
// PTX registers read before they are written are free on the PTX side, so
// a translation that depended on one would not prove.
#pragma once

#include "driver/translate.hpp"
#include "port/asm_snippet.hpp"
#include "port/cxx_from_mir.hpp"

#include <string>

namespace p2a::port {

// Z3's resource units (rlimit) a site's proof may spend: a few seconds.
inline constexpr unsigned kProofResourceLimit = 20'000'000;

struct SiteProof {
  bool proved = false;
  bool undecided = false;      // the solver gave up within its limit (not a wrong translation)
  std::string counterexample; // inputs and both sides' outputs, or why it could not be decided
};

SiteProof proveSite(const translate::Translation &tr, const AsmSnippet &sn, const CxxSite &site);

} // namespace p2a::port
