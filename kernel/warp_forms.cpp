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
  sync = !m.empty() && m.front() == "sync";
  if (sync)
    m.erase(m.begin());
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
