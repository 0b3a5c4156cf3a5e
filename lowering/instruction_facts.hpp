// What the passes after layout need to know about one machine instruction,
// from the op table and its physical operands alone: the registers it
// reads and writes, its hazard class (targets/wait_states.hpp) and its ALU
// kind and latency for s_delay_alu (targets/alu_delay.hpp).
#pragma once

#include "isel/machine_ir.hpp"
#include "targets/alu_delay.hpp"
#include "targets/target_info.hpp"
#include "targets/wait_states.hpp"

#include <vector>

namespace p2a::klower {

// The 32-bit registers a physical operand names (VCC as one unit; EXEC,
// SCC and named registers as none).
targets::RegUnits registerUnits(const mir::MOperand &o);

struct IssueFacts {
  targets::InstFacts hazard;
  targets::AluInstr alu;
};
IssueFacts issueFacts(const mir::MInst &mi, const targets::TargetInfo &t);

} // namespace p2a::klower
