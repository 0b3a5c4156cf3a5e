// Proof that a rule's AMD template equals its PTX form for every input its
// constraints allow (Z3, bit-vectors). Both sides come from the single
// semantics definitions in ptx_semantics.cpp and amd_ops.cpp.
//
// What is modelled: each source as a free bit-vector (a 16-bit value sits in
// the low half of a VGPR whose high half is arbitrary for registers and 0 for
// immediates); unwritten temporaries and the destination's old value as
// arbitrary; EXEC as the lane's bit (masks hold 0 in inactive lanes); and
// every way the PTX destination may name the same register as a source.
#pragma once

#include "rules/rule.hpp"

#include <optional>
#include <string>

namespace p2a::targets {
struct TargetInfo;
}

namespace p2a::verify {

struct ProofResult {
  enum class Status { Proved, Failed, NotApplicable } status = Status::NotApplicable;
  std::string counterexample; // "a=0x.. b=0x.. c=0x..: PTX d=0x.. AMD d=0x.. (dst aliases a)"
  unsigned cases = 0;         // alias/operand-kind scenarios proved
};

ProofResult proveRule(const rules::Rule &rule, const targets::TargetInfo &t);

// On a target with gfx11's MAD intra-forwarding bug (TargetInfo::
// mad64_overlap_hazard), proveRule fails a rule whose template has a
// v_mad_u64_u32 / v_mad_i64_i32 whose destination may share a register with
// one of its sources: the same value, or d and a source PTX may make one
// register. Why, or nothing.
std::optional<std::string> mad64Overlap(const rules::Rule &rule, const targets::TargetInfo &t);

// For 64-bit a and b, modulo 2^128: sext(a)*sext(b) = zext(a)*zext(b) -
// ((a<0 ? b : 0) << 64) - ((b<0 ? a : 0) << 64). Proved over the integers
// per sign case (once; the result is cached): true when every case holds.
bool signedProductIdentity();

// Runs the rule's template on concrete source values (register sources;
// `dstAlias` >= 0 makes d the same register as that source) and returns the
// destinations in their PTX widths. The concrete twin of the proof.
std::vector<sem::BV> runTemplate(const rules::Rule &rule, const targets::TargetInfo &t,
                                 const std::vector<sem::BV> &srcs, int dstAlias = -1);

// A concrete PTX instruction matching the rule (registers %a %b ..., immediates
// satisfying its constraints, found by Z3). `literal` asks for immediates
// outside the inline-constant range where the constraints allow it.
std::optional<ptx::Instruction> sampleInstruction(const rules::Rule &rule, bool literal, unsigned seed = 0);

} // namespace p2a::verify
