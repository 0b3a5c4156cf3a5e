// A count of the steps the size-dependent loops of the analyses and the
// lowering take (fixed-point rounds times what each round visits, dominator
// tree walks, range queries), per thread. tests/scaling/work_scaling_test.cpp
// checks that doubling a kernel at most triples it: a loop that became
// quadratic shows there, without timing anything.
#pragma once

#include <cstdint>

namespace p2a::kernel {

inline thread_local uint64_t workSteps = 0;
inline void countWork(uint64_t steps) { workSteps += steps; }

} // namespace p2a::kernel
