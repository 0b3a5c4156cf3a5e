// Machine IR as text for people (`--print-ir-after`, tests/passes): virtual
// registers by their PTX names (temporaries as %tN) with their class, so the
// IR between lowering steps can be read and compared before registers are
// assigned. Not assembly: isel/printer.hpp prints what MC assembles.
#pragma once

#include "isel/machine_ir.hpp"

#include <string>

namespace p2a::mir {

// "v_add_u32 %r3:v32, %r1:v32, 12"; a pair operand as "{%rd1.lo:v32, %t4:v32}".
std::string printVirtual(const MInst &mi, const Function &fn);
// "v3", "s[4:5]" (or "[s4,s5]"), "ttmp9": a physical register range.
std::string physicalRegText(const MOperand &phys, TupleSpelling tuples = TupleSpelling::Range);
// file "v", first 6, count 2: "v[6:7]" or "[v6,v7]".
std::string registerTupleText(const char *file, unsigned first, unsigned count, TupleSpelling tuples);
// The text of an operand that is no register value: a label's or symbol's
// name, a special or hardware register, a cache policy ("" for none).
std::string namedOperandText(const MOperand &o, const Function &fn);
// "%r3:v32", "%rd2.hi:v64", "%p1:mask", "%t7:s32".
std::string printVirtualReg(unsigned vreg, const Function &fn, rules::Part part = rules::Part::Whole);

} // namespace p2a::mir
