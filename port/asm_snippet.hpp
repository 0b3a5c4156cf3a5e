// An inline asm statement as a PTX snippet: its operands (GNU constraints as
// nvcc reads them: "r" .b32, "l" .b64, "h" .b16, "n" an immediate, "=" and
// "+" outputs, a digit an input tied to that output) and its template with
// each %N / %[name] replaced by a PTX register %p2a_N (or the immediate's
// value), and %% by %. Every snippet character keeps the source offset it
// came from, so that PTX diagnostics point into the .cu file.
#pragma once

#include "port/inline_asm_scanner.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace p2a::port {

struct SnippetOperand {
  unsigned index = 0;    // %N
  bool output = false, input = false;
  unsigned width = 32;   // 16, 32 or 64 bits
  std::optional<uint64_t> immediate; // "n" with a literal value: substituted, not a register
  std::string expr;      // the C++ expression (an output's lvalue; an input's value)
  std::string inputExpr; // an output also read: "+" (expr) or an input tied to it by "N"
  size_t exprOffset = 0; // its constraint's offset (for diagnostics)
  std::string ptxRegister() const { return "%p2a_" + std::to_string(index); }
};

struct AsmSnippet {
  std::vector<SnippetOperand> operands; // outputs, then inputs not tied to an output
  std::vector<std::string> registerOf;  // per %N: its PTX register, or the immediate's text
  std::string text;                     // PTX statements, then the operands' .reg declarations
  size_t statementsLength = 0;          // text's length without the declarations
  std::vector<size_t> offsets;          // per text character: its source offset
  std::string error;                    // why the statement is no snippet
  size_t errorOffset = 0;
};

AsmSnippet buildSnippet(const AsmStatement &st);

// The value of an integer constant expression made of literals (decimal,
// hex, octal, binary; u/l suffixes) and + - * / % << >> & | ^ ~ ( ): what an
// "n" operand usually holds. nullopt for anything else (a macro, a template
// parameter).
std::optional<uint64_t> evaluateConstant(const std::string &expr);

} // namespace p2a::port
