// atom / red forms (PTX ISA 9.7.13.5 atom, 9.7.13.6 red): which operation,
// type, space, ordering and scope, and whether PTX defines the combination.
#include "kernel/atomic_forms.hpp"

#include <optional>

namespace p2a::kernel {

using ptx::TypeClass;

bool decodeAtomicForm(const ::ptx::ast::Instruction &in, const std::string &full, Stmt &s, Diagnostics &diags) {
  const ::ptx::ast::SourceLoc at = in.opcode_loc.line ? in.opcode_loc : in.loc;
  auto unsupported = [&](const std::string &why) {
    error(diags, at, "unsupported form '" + full + "': " + why);
    return false;
  };
  const bool red = in.opcode == "red";
  s.kind = Stmt::Kind::Atomic;
  s.space = Space::Generic;
  s.scope = targets::FenceScope::Gpu;
  std::optional<Stmt::AtomicOp> op;
  std::optional<ptx::ScalarType> ty;
  for (const std::string &m : in.modifiers) {
    if (m == "relaxed") continue;
    if (m == "acquire" || m == "release" || m == "acq_rel") {
      s.ordered = true;
      continue;
    }
    if (m == "cta") s.scope = targets::FenceScope::Cta;
    else if (m == "gpu" || m == "cluster") s.scope = targets::FenceScope::Gpu;
    else if (m == "sys") s.scope = targets::FenceScope::Sys;
    else if (m == "global") s.space = Space::Global;
    else if (m == "shared" || m == "shared::cta") s.space = Space::Shared;
    else if (m == "add") op = Stmt::AtomicOp::Add;
    else if (m == "inc") op = Stmt::AtomicOp::Inc;
    else if (m == "dec") op = Stmt::AtomicOp::Dec;
    else if (m == "min") op = Stmt::AtomicOp::Min;
    else if (m == "max") op = Stmt::AtomicOp::Max;
    else if (m == "and") op = Stmt::AtomicOp::And;
    else if (m == "or") op = Stmt::AtomicOp::Or;
    else if (m == "xor") op = Stmt::AtomicOp::Xor;
    else if (m == "exch") op = Stmt::AtomicOp::Exch;
    else if (m == "cas") op = Stmt::AtomicOp::Cas;
    else if (std::optional<ptx::ScalarType> t = ptx::parseScalarType(m, ptx::FloatTypes::Reject); t && !ty) ty = t;
    else if (ptx::parseScalarType(m, ptx::FloatTypes::AsBits))
      return unsupported("floating-point atomics are not supported");
    else return unsupported("unexpected modifier '." + m + "'");
  }
  if (!op || !ty || ty->cls == TypeClass::Pred)
    return unsupported("expected an operation and an integer type");
  const unsigned bits = ty->bits;
  const TypeClass c = ty->cls;
  bool valid;
  switch (*op) {
  case Stmt::AtomicOp::Add: valid = (c == TypeClass::U && (bits == 32 || bits == 64)) || (c == TypeClass::S && bits == 32); break;
  case Stmt::AtomicOp::Inc:
  case Stmt::AtomicOp::Dec: valid = c == TypeClass::U && bits == 32; break;
  case Stmt::AtomicOp::Min:
  case Stmt::AtomicOp::Max: valid = (c == TypeClass::U || c == TypeClass::S) && (bits == 32 || bits == 64); break;
  case Stmt::AtomicOp::And:
  case Stmt::AtomicOp::Or:
  case Stmt::AtomicOp::Xor:
  case Stmt::AtomicOp::Exch: valid = c == TypeClass::B && (bits == 32 || bits == 64); break;
  case Stmt::AtomicOp::Cas: valid = c == TypeClass::B && (bits == 32 || bits == 16 || bits == 64); break;
  }
  if (!valid) {
    error(diags, at, "invalid form '" + full + "': no such type for this operation");
    return false;
  }
  if (*op == Stmt::AtomicOp::Cas && bits == 16)
    return unsupported("16-bit compare-and-swap is not supported");
  if (red && (*op == Stmt::AtomicOp::Exch || *op == Stmt::AtomicOp::Cas)) {
    error(diags, at, "invalid form '" + full + "': red has no ." + (*op == Stmt::AtomicOp::Exch ? "exch" : "cas"));
    return false;
  }
  s.atomicOp = *op;
  s.elemBits = bits;
  s.elemType = c;
  s.regWidth = bits;
  return true;
}

} // namespace p2a::kernel
