// AST -> typed PTX IR (ptx_ir.hpp) for the forms rules translate, with validation.
#pragma once

#include "ptx/diagnostic.hpp"
#include "ptx/ptx_ir.hpp"
#include "ptx/register_types.hpp"

#include <functional>
#include <map>
#include <string_view>
#include <unordered_map>
#include <optional>
#include <string>

namespace p2a::ptx {

// Decode one instruction. Returns nullopt (and appends errors) for a wrong or
// unsupported form.
std::optional<Instruction> decodeInstruction(const ::ptx::ast::Instruction &in, Diagnostics &diags);

// A video instruction whose a or b has a byte or half-word selector
// (`%r2.b1`, `%r3.h1`; PTX ISA 9.7.18.1 partSelectSignExtend) as the
// instructions that compute it: a bfe.u32/.s32 (by the operand's type) of
// the selected part into a fresh register `%__sel<N>` per such operand,
// then the instruction on whole registers. A selector on d (the data merge,
// `d.h1, a, b, c`) makes the instruction write a fresh register without c,
// followed by .sat's clamp to the part's range and a bfi.b32 into c. Empty
// where nothing is expanded (the caller decodes `in` itself: no copy of
// every instruction); a d selector that cannot merge (no c, or a
// secondary operation) stays for decodeInstruction to refuse.
//
// Also (first): `mov.b64` with four .b16 quarters (PTX ISA 9.7.9.3, `mov.b64
// {a, b, c, d}, x` and its pack) as the two-halves moves it is made of: the
// .b64 split into (or built from) two fresh .b32 registers `%__q<N>`, each
// split into (or built from) two .b16 values.
std::vector<::ptx::ast::Instruction> expandOperandSelectors(const ::ptx::ast::Instruction &in, unsigned &counter);

// An integer constant operand's bits in a `width`-bit operand: truncated as
// ptxas does, with -Wconstant-truncated when bits are lost (immediateFits).
// `operand` names the operand in the warning ("the 32-bit operand of
// 'add.s32'").
uint64_t truncatedConstant(const ::ptx::ast::Operand &o, unsigned width, const std::string &operand,
                           Diagnostics &diags);

// The most registers one function may declare, one range or all together.
inline constexpr size_t kMaxDeclaredRegisters = size_t(1) << 20;
// `floats`: whether .f16/.f32/.f64 registers are kept (as bits of their width:
// kernels move and store them) or left out (snippets compute on them).
void collectRegisterDeclaration(const ::ptx::ast::Declaration &decl, RegisterTypes &types, Diagnostics &diags,
                                FloatTypes floats = FloatTypes::Reject);

// Check (and, for undeclared registers, infer) the type of each register
// operand from the form. Conflicting uses are errors.
bool typeRegisters(const Instruction &inst, RegisterTypes &types, Diagnostics &diags);

// A module must declare its PTX version and target first (PTX ISA 11.1.2
// .version, 11.1.3 .target; ptxas rejects a file without them, an empty
// file included): errors at 1:1 for what is missing. Each function, and
// each label within a function, is defined once: an error at the second.
// `deferredBody[i]`: function i has a body the parse deferred (its labels
// are checked with checkLabels once it is parsed).
void checkModuleStructure(const ::ptx::ast::Module &m, Diagnostics &diags,
                          const std::vector<bool> &deferredBody = {});
void checkLabels(const ::ptx::ast::Function &f, Diagnostics &diags);

// Is this an "invalid form" error of decodeInstruction (a wrong PTX form,
// as opposed to one this translator does not support)? -fsyntax-only
// reports exactly these beside syntax errors.
bool isFormError(const Diagnostic &d);

} // namespace p2a::ptx
