// Which state space a generic pointer register points into, when the kernel
// shows it (as LLVM's InferAddressSpaces does for addrspacecast): a kernel
// argument is a global pointer (a host passes device memory), cvta.shared /
// cvta.local / cvta.global make pointers into that space, and moves, adds
// and subtracts of one pointer and integers keep the space. A generic
// access through a register known to point into one space is lowered as an
// access to that space (global_*, ds_*, scratch_* on the low half), not as
// a FLAT instruction routed at run time.
#pragma once

#include "kernel/analysis/register_numbering.hpp"
#include "kernel/kernel_ir.hpp"

#include <map>
#include <string>

namespace p2a::kernel {

// Registers whose every value points into one space (Global, Shared or
// Local). A register some of whose values are integers, loaded from memory,
// computed otherwise or of two spaces is absent: it stays generic. `ids`
// numbers k's registers (the caller's, shared with its other analyses).
std::map<std::string, Space> pointerSpaces(const Kernel &k, const RegisterNumbering &ids);

} // namespace p2a::kernel
