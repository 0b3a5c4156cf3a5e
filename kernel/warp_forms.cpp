// shfl / vote forms (PTX ISA 9.7.9.6 shfl.sync, 9.7.13.9 vote.sync, and their
// deprecated sm_6x spellings without .sync): which mode and type.
#include "kernel/warp_forms.hpp"

#include <optional>

namespace p2a::kernel {

bool decodeWarpForm(const ::ptx::ast::Instruction &in, const std::string &full, Stmt &s, bool &sync,
                    Diagnostics &diags) {
  const ::ptx::ast::SourceLoc at = in.opcode_loc.line ? in.opcode_loc : in.loc;
  auto unsupported = [&](const std::string &why) {
    error(diags, at, "unsupported form '" + full + "': " + why);
    return false;
  };
  std::vector<std::string> m = in.modifiers;
  if (in.opcode == "match") { // match.{any,all}.sync.{b32,b64} d[|p], a, membermask
    // ptxas also takes match.sync.{any,all} (seen with CUDA 13.0's ptxas).
    if (m.size() == 3 && m[0] == "sync")
      std::swap(m[0], m[1]);
    if (m.size() != 3 || m[1] != "sync" || (m[0] != "any" && m[0] != "all") || (m[2] != "b32" && m[2] != "b64"))
      return unsupported("expected match.{any,all}.sync.{b32,b64}");
    sync = true;
    s.kind = Stmt::Kind::WarpCombine;
    s.combineMode = m[0] == "any" ? Stmt::CombineMode::MatchAny : Stmt::CombineMode::MatchAll;
    s.elemBits = m[2] == "b64" ? 64 : 32;
    s.elemType = ptx::TypeClass::B;
    return true;
  }
  // CUB writes vote.ballot.sync.b32 (ptxas accepts .sync after the mode).
  if (in.opcode == "vote" && m.size() == 3 && m[1] == "sync")
    std::swap(m[0], m[1]);
  sync = !m.empty() && m.front() == "sync";
  if (sync)
    m.erase(m.begin());
  if (in.opcode == "redux") { // redux.sync.op.type d, a, membermask
    if (!sync || m.size() != 2)
      return unsupported("expected redux.sync.{add,min,max}.{u32,s32} or redux.sync.{and,or,xor}.b32");
    static const std::pair<const char *, Stmt::AtomicOp> ops[] = {
        {"add", Stmt::AtomicOp::Add}, {"min", Stmt::AtomicOp::Min}, {"max", Stmt::AtomicOp::Max},
        {"and", Stmt::AtomicOp::And}, {"or", Stmt::AtomicOp::Or},   {"xor", Stmt::AtomicOp::Xor}};
    std::optional<Stmt::AtomicOp> op;
    for (const auto &[name, o] : ops)
      if (m[0] == name)
        op = o;
    if (!op)
      return unsupported("unknown operation '." + m[0] + "'");
    const bool bitwise = *op == Stmt::AtomicOp::And || *op == Stmt::AtomicOp::Or || *op == Stmt::AtomicOp::Xor;
    if (bitwise ? m[1] != "b32" : (m[1] != "u32" && m[1] != "s32"))
      return unsupported("redux." + m[0] + " takes " + (bitwise ? ".b32" : ".u32 or .s32") +
                         " (floating-point and 64-bit reductions are not supported)");
    s.kind = Stmt::Kind::WarpCombine;
    s.combineMode = Stmt::CombineMode::Redux;
    s.atomicOp = *op;
    s.elemBits = 32;
    s.elemType = m[1] == "s32" ? ptx::TypeClass::S : m[1] == "u32" ? ptx::TypeClass::U : ptx::TypeClass::B;
    return true;
  }
  if (in.opcode == "shfl") {
    // shfl.sync.mode.b32 d[|p], a, b, c, membermask
    if (m.size() != 2 || m[1] != "b32")
      return unsupported("expected shfl.sync.{up,down,bfly,idx}.b32");
    s.kind = Stmt::Kind::WarpShuffle;
    if (m[0] == "up") s.shuffleMode = Stmt::ShuffleMode::Up;
    else if (m[0] == "down") s.shuffleMode = Stmt::ShuffleMode::Down;
    else if (m[0] == "bfly") s.shuffleMode = Stmt::ShuffleMode::Bfly;
    else if (m[0] == "idx") s.shuffleMode = Stmt::ShuffleMode::Idx;
    else return unsupported("unknown mode '." + m[0] + "'");
    return true;
  }
  if (in.opcode == "activemask") { // activemask.b32 d
    if (sync || m.size() != 1 || m[0] != "b32")
      return unsupported("expected activemask.b32");
    s.kind = Stmt::Kind::WarpVote;
    s.voteMode = Stmt::VoteMode::Active;
    return true;
  }
  // vote.sync.{all,any,uni}.pred d, {!}a, membermask; vote.sync.ballot.b32 d, {!}a, membermask
  if (m.size() != 2)
    return unsupported("expected vote.sync.{all,any,uni}.pred or vote.sync.ballot.b32");
  s.kind = Stmt::Kind::WarpVote;
  std::optional<Stmt::VoteMode> mode;
  if (m[0] == "all") mode = Stmt::VoteMode::All;
  else if (m[0] == "any") mode = Stmt::VoteMode::Any;
  else if (m[0] == "uni") mode = Stmt::VoteMode::Uni;
  else if (m[0] == "ballot") mode = Stmt::VoteMode::Ballot;
  if (!mode)
    return unsupported("unknown mode '." + m[0] + "'");
  if (m[1] != (*mode == Stmt::VoteMode::Ballot ? "b32" : "pred")) {
    error(diags, at, "invalid form '" + full + "': vote." + m[0] + " takes ." +
                         (*mode == Stmt::VoteMode::Ballot ? "b32" : "pred"));
    return false;
  }
  s.voteMode = *mode;
  return true;
}

} // namespace p2a::kernel
