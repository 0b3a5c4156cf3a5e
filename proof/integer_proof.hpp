// Bit-vector formulas as integer arithmetic, for proofs Z3 cannot finish by
// bit-blasting. Comparing two differently structured multipliers wider than
// 32 bits (a 64-bit product against its 32-bit partial products) is hard for
// a SAT solver, but it is polynomial algebra over the integers: with each
// operation written as its SMT-LIB definition (bvadd = (x + y) mod 2^w,
// extract = (x div 2^l) mod 2^n, ...), Z3's nonlinear arithmetic normalises
// both sides and the identity falls out.
#pragma once

#include <z3++.h>

#include <optional>
#include <string>

namespace p2a::verify {

// The same formula over the integers: every bit-vector term of width w
// becomes an integer in [0, 2^w) (its unsigned value); each bit-vector
// constant becomes an integer constant whose range is added to `bounds`.
// nullopt (with the operator's name in `unsupported`) for an operation the
// translation does not define -- bitwise logic wider than one bit, shifts.
std::optional<z3::expr> toIntegerFormula(const z3::expr &boolean, z3::expr_vector &bounds, std::string &unsupported);

} // namespace p2a::verify
