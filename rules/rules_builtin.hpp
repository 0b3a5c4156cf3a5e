// The families of built-in rules; rule_table.cpp concatenates them.
#pragma once

#include "rules/rule.hpp"

#include <vector>

namespace p2a::rules {

void addLogicRules(std::vector<Rule> &out);  // and or xor not cnot
void addLop3Rules(std::vector<Rule> &out);    // lop3.b32
void addLop3AndRules(std::vector<Rule> &out); // lop3.and.b32
void addLop3OrRules(std::vector<Rule> &out);  // lop3.or.b32
void addShiftRules(std::vector<Rule> &out);  // shf shl shr
void addPrmtRules(std::vector<Rule> &out);      // prmt, every mode
void addBitCountRules(std::vector<Rule> &out);  // brev popc clz bfind
void addBitFieldRules(std::vector<Rule> &out);  // bfe bfi bmsk szext
void addFnsRules(std::vector<Rule> &out);       // fns
void addDivideRules(std::vector<Rule> &out);    // div rem
void addVideoRules(std::vector<Rule> &out);     // vshl vshr vadd vsub vabsdiff vmin vmax vset
void addConstantFoldRules(std::vector<Rule> &out); // all-immediate operands, but of video forms
void addVideoConstantFoldRules(std::vector<Rule> &out); // all-immediate operands of video forms
void addArithRules(std::vector<Rule> &out);        // mov add sub mul mad cvt
void addCompareRules(std::vector<Rule> &out);      // setp selp
void addScalarRules(std::vector<Rule> &out);       // uniform values on the scalar ALU

// The VOPC compare for a PTX comparison at 16, 32 or 64 bits (rules_compare.cpp).
amd::Op compareOp(ptx::CmpOp c, bool isSigned, unsigned width);

} // namespace p2a::rules
