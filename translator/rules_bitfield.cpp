// Rules for bfe bfi bmsk szext (PTX ISA 9.7.1).
#include "translator/rule_dsl.hpp"
#include "translator/rules_builtin.hpp"

namespace p2a::rules {

using namespace dsl;

void addBitFieldRules(std::vector<Rule> &out) {
  (void)out; // in progress
}

} // namespace p2a::rules
