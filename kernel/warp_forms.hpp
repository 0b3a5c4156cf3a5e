// The form of a shfl or vote instruction, decoded into a WarpShuffle or
// WarpVote statement (kernel_decoder.cpp decodes its operands). Private to
// kernel/.
#pragma once

#include "kernel/kernel_ir.hpp"

#include <string>

namespace p2a::kernel {

// Sets s.kind and shuffleMode or voteMode from the modifiers of `in` (whose
// full name is `full`), and `sync` when the form is .sync (it then takes a
// membermask operand; the sm_6x forms without it mean the whole warp).
// False, with a located error, for what PTX does not define or the
// translation lacks.
bool decodeWarpForm(const ::ptx::ast::Instruction &in, const std::string &full, Stmt &s, bool &sync,
                    Diagnostics &diags);

} // namespace p2a::kernel
