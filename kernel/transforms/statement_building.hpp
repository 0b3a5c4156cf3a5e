// What the rewrites in kernel/transforms/ look for and build statements
// from: plain computations; immediates, the instruction that takes an old
// one's place (its source location and text kept, for notes and
// diagnostics), and the cost of an instruction's cheapest rule, which
// decides whether a rewrite pays.
#pragma once

#include "isel/selector.hpp"
#include "kernel/kernel_ir.hpp"
#include "targets/target_info.hpp"

#include <cstdint>
#include <vector>

namespace p2a::kernel {

// What the rewrites take apart: an unguarded computation `op` (of `width`
// bits; 0: any) with no carry in or out, not a predicate.
bool isPlain(const Stmt &s, ptx::Opcode op, unsigned width = 0);
bool writesOneRegister(const Stmt &s);

ptx::Operand immediate(uint64_t v);
ptx::Operand registerOperand(const std::string &name);

// The instruction that takes the place of `at`, keeping its source location and text.
ptx::Instruction replacing(const ptx::Instruction &at, ptx::Form form, std::vector<ptx::Operand> dsts,
                           std::vector<ptx::Operand> srcs);

// A statement computing `inst`, at `at`'s place in the source (location and
// text) and nothing else of it: a statement a rewrite adds.
Stmt computation(const Stmt &at, ptx::Instruction inst, std::string note);

// `k` with before[i] inserted before statement i and after[i] after it
// (both sized like k.body). A label of statement i, and a branch to it,
// move to the first statement inserted before it; each inserted statement
// maps to statement i's source (Kernel::sourceIndex).
Kernel withInsertedStatements(Kernel k, std::vector<std::vector<Stmt>> before, std::vector<std::vector<Stmt>> after);

// The cost of the cheapest rule for `inst` on `t` (1e30 where none applies).
double bestCost(const ptx::Instruction &inst, const targets::TargetInfo &t, const select::RuleCostFn &cost);

} // namespace p2a::kernel
