// Rule selection and lowering: a PTX instruction -> the cheapest applicable
// rule for the target -> machine instructions over virtual registers, with
// immediates legalised for the target's encodings.
#pragma once

#include "ptx/diagnostic.hpp"
#include "isel/machine_ir.hpp"

#include <llvm/ADT/ArrayRef.h>

#include <functional>
#include <optional>

namespace p2a::targets {
struct TargetInfo;
}

namespace p2a::select {

// The cost the selector minimises (see cost_model.hpp).
using RuleCostFn = std::function<double(const rules::Rule &, const targets::TargetInfo &)>;

// Does `rule` apply to `inst` on `t` (form, target, operand kinds, same/distinct
// registers, value constraints)? Pair feasibility is checked separately.
bool ruleMatches(const rules::Rule &rule, const ptx::Instruction &inst, const targets::TargetInfo &t);

// All matching rules, cheapest first (ties: higher priority, then table
// order): the vector rules, or with `scalar` only the scalar ones.
std::vector<const rules::Rule *> candidates(const ptx::Instruction &inst, const targets::TargetInfo &t,
                                            const RuleCostFn &cost, bool scalar = false);

// Whether any rule matches `inst` (as !candidates(...).empty(), without
// costing or ordering them).
bool hasMatchingRule(const ptx::Instruction &inst, const targets::TargetInfo &t, bool scalar = false);
// The cost of the cheapest matching rule (candidates' first), or nullopt
// where none matches.
std::optional<double> lowestCost(const ptx::Instruction &inst, const targets::TargetInfo &t, const RuleCostFn &cost,
                                 bool scalar = false);

// Lower `inst` with the best feasible rule into `fn`. On failure, appends an
// error naming the form and returns false.
// The vregs of an instruction's operands where its caller has made them
// already (what vregFor gives each register operand; ~0u for one that is
// no register): the lowering then looks none of them up by name (a kernel's
// lowering made two hash lookups per operand per try otherwise).
struct OperandVregs {
  llvm::ArrayRef<unsigned> dsts, srcs;
};

bool selectAndLower(const ptx::Instruction &inst, const targets::TargetInfo &t, const RuleCostFn &cost,
                    mir::Function &fn, Diagnostics &diags, const OperandVregs *known = nullptr);

// Lower with a given rule (no cost involved); false if its register pairs
// cannot be satisfied given the pairs already in `fn`.
// With `toScalarHomes`, a scalar rule's registers are their scalar homes
// (homeFor), so that a kernel keeps a register's SGPR value apart from its
// VGPR.
bool lowerWith(const rules::Rule &rule, const ptx::Instruction &inst, const targets::TargetInfo &t,
               mir::Function &fn, bool toScalarHomes = false, const OperandVregs *known = nullptr);

// The vreg for a PTX register (created on first use with the class its
// width implies: VGPRs, or SGPRs with `scalar`), or for one of the kernel
// lowering's own values (`role` Lowering).
unsigned vregFor(mir::Function &fn, const std::string &name, unsigned width, bool scalar = false,
                 mir::VRegRole role = mir::VRegRole::PtxRegister);
// The SGPR home (S32/S64; a predicate's lane mask) of a uniform PTX register.
unsigned homeFor(mir::Function &fn, const std::string &name, unsigned width);

} // namespace p2a::select
