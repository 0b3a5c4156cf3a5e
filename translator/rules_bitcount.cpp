// Rules for brev popc clz bfind (PTX ISA 9.7.1).
#include "translator/rule_dsl.hpp"
#include "translator/rules_builtin.hpp"

namespace p2a::rules {

using namespace dsl;

void addBitCountRules(std::vector<Rule> &out) {
  (void)out; // in progress
}

} // namespace p2a::rules
