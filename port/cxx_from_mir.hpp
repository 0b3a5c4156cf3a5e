// The machine IR the rule table selected for one asm statement, written as
// HIP C++: one `const` local per computed value (SSA over the virtual
// registers: a copy or a constant is propagated, not declared), each AMD
// instruction spelled by amd_op_cxx. Inputs are read once into locals
// (p2a_N for operand %N); outputs are assigned at the end; PTX's carry
// flag CC.CF between statements is the caller's bool `p2a_cc`.
#pragma once

#include "driver/translate.hpp"
#include "port/asm_snippet.hpp"
#include "port/cxx_expr.hpp"

#include <string>
#include <vector>

namespace p2a::port {

inline constexpr const char *kCarryVariable = "p2a_cc";

struct CxxLocal {
  std::string name;
  Expr value;
};

struct CxxOutput {
  std::string lvalue; // the user's expression
  unsigned width = 32;
  Expr value;
};

struct CxxSite {
  std::vector<CxxLocal> inputs; // value: the user's expression as an opaque variable (see inputText)
  std::vector<std::string> inputText;
  std::vector<CxxLocal> locals;
  std::vector<CxxOutput> outputs;
  bool readsCarry = false;
  Expr carryOut; // non-null when the statement leaves CC.CF set
  // The flag's last value is one the statement set and did not read itself
  // (`add.cc` alone, not `add.cc; addc`): it exists for code after it.
  bool exportsCarry = false;
  // Per PTX instruction: stated in C++ directly (form_cxx.hpp) rather than
  // through its rule's instructions.
  std::vector<bool> statedDirectly;
  std::string error;
};

CxxSite cxxFromMir(const translate::Translation &tr, const AsmSnippet &sn);

// The site as a C++ block: `{ ... }` lines, each prefixed by `indent`.
// `compilerBarrier` (a "memory" clobber: the asm may read or write any
// memory) starts it with a compiler-only fence, so that no memory access
// moves across the statement's place, as none moved across the asm.
std::string printSite(const CxxSite &site, const std::string &indent, bool compilerBarrier);

// The C++ type of operand width 16/32/64 as the port holds it (16-bit
// values live zero-extended in uint32_t locals).
CxxType localType(unsigned width);

} // namespace p2a::port
