// Rules for prmt (PTX ISA 9.7.9.7).
#include "translator/rule_dsl.hpp"
#include "translator/rules_builtin.hpp"

namespace p2a::rules {

using namespace dsl;

void addPrmtRules(std::vector<Rule> &out) {
  (void)out; // in progress
}

} // namespace p2a::rules
