// Concrete evaluation of translated machine code for one active lane, with
// the same AMD semantics the proofs use. Tests run PTX test vectors through
// what the selector, legaliser and register allocator actually produced.
#pragma once

#include "driver/translate.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <string>

namespace p2a::mireval {

// Inputs and outputs by PTX register name (values in the register's width;
// predicates 0/1). Registers not given start with a junk pattern, as do the
// high halves of 16-bit registers.
using Values = std::map<std::string, uint64_t>;

// Runs the translation; returns every PTX register's final value.
Values run(const translate::Translation &tr, const targets::TargetInfo &t, const Values &inputs);

} // namespace p2a::mireval
