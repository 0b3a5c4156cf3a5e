// A PTX function's AST -> Kernel (kernel_ir.hpp): parameters at CUDA's
// offsets, variables, statements decoded and typed (calls: call_inlining.cpp).
#include "kernel/decoder.hpp"

#include "kernel/atomic_forms.hpp"
#include "kernel/warp_forms.hpp"

#include "grammar/ast_blocks.hpp"
#include "semantics/bitvec.hpp"

#include <algorithm>
#include <cctype>
#include <set>

namespace p2a::kernel {

namespace detail {

using ptx::TypeClass;

std::optional<Kernel> Decoder::run() {
  k_.name = f_.name;
  k_.loc = f_.name_loc.line ? f_.name_loc : f_.loc;
  const size_t before = diags_.size();
  decodeParams();
  decodeLaunchBounds();
  for (const ast::Declaration &d : m_.globals)
    for (const ast::Declarator &dr : d.declarators)
      if (std::optional<Variable> v = variableOf(d, dr, diags_))
        k_.variables.push_back(*v);
  const std::vector<const ast::Statement *> &stmts = scopedBody(f_).statements;
  declare(stmts);
  // (A statement per instruction, most often, inlined calls included: the
  // vector is not regrown and its statements moved several times over; see
  // decodedStatementEstimate, which counts the Nop put in front below.)
  k_.body.reserve(decodedStatementEstimate(m_, f_));
  for (const ast::Statement *s : stmts) {
    if (const ast::Label *l = std::get_if<ast::Label>(s))
      defineLabel(l->name, l->loc);
    else if (const ast::Instruction *in = std::get_if<ast::Instruction>(s))
      decode(*in);
  }
  for (Stmt &s : k_.body)
    if (s.kind == Stmt::Kind::Branch) {
      auto it = k_.labels.find(s.extra().label);
      if (it == k_.labels.end()) {
        error(diags_, s.loc, "branch to undefined label '" + s.extra().label + "'");
        s.target = static_cast<unsigned>(k_.body.size()); // (a partial kernel: as if to the end)
      } else {
        s.target = it->second;
      }
    }
  // A branch back to the first statement (a loop starting the kernel, or
  // an inlined callee's) would make the entry block a loop target; an
  // empty statement in front keeps the entry block apart.
  if (std::any_of(k_.body.begin(), k_.body.end(),
                  [](const Stmt &st) { return st.kind == Stmt::Kind::Branch && st.target == 0; })) {
    Stmt entry;
    entry.kind = Stmt::Kind::Nop;
    entry.loc = k_.body.front().loc;
    k_.body.insert(k_.body.begin(), entry);
    for (Stmt &st : k_.body)
      if (st.kind == Stmt::Kind::Branch)
        ++st.target;
    for (auto &[name, index] : k_.labels)
      ++index;
  }
  reportUnreadableVariables();
  if (errorsSince(diags_, before) && !partial_)
    return std::nullopt;
  nameRegisterOperands(k_);
  return std::move(k_);
}

void Decoder::declare(const std::vector<const ast::Statement *> &stmts) {
  for (const ast::Statement *s : stmts)
    if (const ast::Declaration *d = std::get_if<ast::Declaration>(s)) {
      if (d->space == "reg")
        ptx::collectRegisterDeclaration(*d, k_.registers, diags_, ptx::FloatTypes::AsBits);
      else if (d->space == "param")
        for (const ast::Declarator &dr : d->declarators)
          callParams_.insert(dr.name); // a call's argument or result (see decodeCall)
      else
        for (const ast::Declarator &dr : d->declarators)
          if (std::optional<Variable> v = variableOf(*d, dr, diags_))
            k_.variables.push_back(*v);
    }
}

void Decoder::reportUnreadableVariables() {
  // An address in an initializer must name a .global or .const variable
  // (a function's address would need indirect calls).
  const VariableIndex byName(k_.variables);
  for (Variable &v : k_.variables)
    for (const Variable::Address &a : v.addresses) {
      const Variable *target = byName.find(a.symbol);
      if (!target || (target->space != Space::Global && target->space != Space::Const)) {
        v.initError = "the initializer of '" + v.name + "' holds the address of '" + a.symbol +
                      "', which is no .global or .const variable (function addresses are not supported)";
        v.init.clear();
        v.addresses.clear();
        break;
      }
    }
  for (const Variable &v : k_.variables) {
    if (v.initError.empty())
      continue;
    const bool used = std::any_of(k_.body.begin(), k_.body.end(), [&](const Stmt &st) {
      return st.extra().symbol == v.name || (st.baseIsSymbol && st.extra().base == v.name);
    });
    if (used)
      error(diags_, v.loc, v.initError);
  }
}

void Decoder::defineLabel(const std::string &name, ::ptx::ast::SourceLoc loc) {
  if (!k_.labels.emplace(name, static_cast<unsigned>(k_.body.size())).second)
    error(diags_, loc, "label '" + name + "' is defined in two blocks of '" + f_.name +
                           "': labels local to a { } block are not supported yet");
}

void Decoder::decodeParams() {
  unsigned offset = 0;
  for (const ast::Declaration &d : f_.params) {
    std::optional<ptx::ScalarType> st = ptx::parseScalarType(d.type, ptx::FloatTypes::AsBits);
    if (!st || st->bits < 8) {
      error(diags_, d.loc, "parameters of type '." + d.type + "' are not supported");
      continue;
    }
    for (const ast::Declarator &dr : d.declarators) {
      Param p;
      p.name = dr.name;
      p.loc = dr.loc;
      const uint64_t elem = st->bits / 8 * (d.vector ? *d.vector : 1);
      uint64_t count = 1;
      for (const std::optional<uint64_t> &n : dr.dims) // (clamped: five dimensions of 8192 wrap 64 bits)
        count = n ? std::min<uint64_t>(count * std::min<uint64_t>(*n, kMaxParamBlock + 1), kMaxParamBlock + 1) : 0;
      // CUDA places each parameter at its natural (or declared) alignment,
      // as the PTX .param list does (PTX ISA 5.1.6.1).
      p.align = d.align ? *d.align : static_cast<unsigned>(elem);
      const uint64_t align = std::max<uint64_t>(p.align, 1);
      const uint64_t start = (uint64_t(offset) + align - 1) / align * align;
      // Sizes in 64 bits: a 4 GiB parameter must not wrap the offsets.
      if (elem * count > kMaxParamBlock || start + elem * count > kMaxParamBlock) {
        error(diags_, dr.loc, "kernel parameters larger than " + std::to_string(kMaxParamBlock) +
                                  " bytes in all (CUDA's limit) are not supported");
        return;
      }
      p.size = static_cast<unsigned>(elem * count);
      p.offset = static_cast<unsigned>(start);
      p.pointerSized = st->bits == 64 && dr.dims.empty();
      offset = p.offset + p.size;
      k_.params.push_back(p);
    }
  }
  k_.paramBytes = offset;
}

void Decoder::decodeLaunchBounds() {
  for (const ast::Directive &d : f_.performance) {
    const bool dims = d.name == "maxntid" || d.name == "reqntid";
    if (!dims && d.name != "minnctapersm" && d.name != "maxnreg")
      continue;
    // "320, 1, 1" or "64": one to three positive integers (one for the others).
    std::vector<unsigned> values;
    std::string field;
    bool ok = true;
    for (size_t i = 0; i <= d.text.size() && ok; ++i) {
      if (i == d.text.size() || d.text[i] == ',') {
        const size_t b = field.find_first_not_of(" \t"), e = field.find_last_not_of(" \t");
        const std::string v = b == std::string::npos ? "" : field.substr(b, e - b + 1);
        ok = !v.empty() && v.size() <= 9 && std::all_of(v.begin(), v.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }) &&
             std::stoul(v) > 0;
        if (ok)
          values.push_back(static_cast<unsigned>(std::stoul(v)));
        field.clear();
      } else {
        field += d.text[i];
      }
    }
    if (!ok || values.size() > (dims ? 3u : 1u)) {
      error(diags_, d.loc, "expected ." + d.name + (dims ? " X[, Y[, Z]]" : " N") + " with positive integers, got '" +
                               d.text + "'");
      continue;
    }
    LaunchBounds &b = k_.bounds;
    if (dims) {
      uint64_t n = 1;
      for (unsigned v : values)
        n *= v;
      // PTX ISA 11.4.2/11.4.3: at most 1024 threads in a CTA.
      if (n > 1024) {
        error(diags_, d.loc, "." + d.name + " " + d.text + " asks for " + std::to_string(n) +
                                 " threads per block; a block has at most 1024");
        continue;
      }
      if (d.name == "maxntid") {
        b.maxThreads = static_cast<unsigned>(n);
        b.maxThreadsLoc = d.loc;
      } else {
        for (unsigned i = 0; i < 3; ++i)
          b.required[i] = i < values.size() ? values[i] : 1;
        b.requiredLoc = d.loc;
      }
    } else if (d.name == "minnctapersm") {
      b.minBlocksPerSm = values[0];
      b.minBlocksLoc = d.loc;
    } else {
      b.maxRegisters = values[0];
      b.maxRegistersLoc = d.loc;
    }
  }
  const LaunchBounds &b = k_.bounds;
  if (b.required[0] && b.maxThreads && b.requiredThreads() > b.maxThreads)
    error(diags_, b.requiredLoc, ".reqntid asks for " + std::to_string(b.requiredThreads()) +
                                     " threads, more than .maxntid allows (" + std::to_string(b.maxThreads) + ")");
}

void Decoder::typeReg(const std::string &name, unsigned width, ::ptx::ast::SourceLoc loc) {
  const ptx::RegisterType *known = k_.registers.find(name);
  if (!known) {
    k_.registers.set(name, ptx::RegisterType{width == 1 ? TypeClass::Pred : TypeClass::B, width});
    return;
  }
  if (known->width != width)
    error(diags_, loc,
          "register " + name + " is " + std::to_string(known->width) + "-bit but is used as " +
              std::to_string(width) + "-bit here");
}

bool Decoder::regOperand(const ast::Operand &o, unsigned width, ptx::Operand &out, bool allowImm) {
  out.loc = o.loc;
  if (o.kind == ast::Operand::Kind::Register && !o.element && !o.negated && o.selector.empty()) {
    out.kind = ptx::Operand::Kind::Register;
    out.reg = o.name;
    typeReg(o.name, width, o.loc);
    return true;
  }
  if (allowImm && o.kind == ast::Operand::Kind::Immediate && o.imm_kind == ast::Operand::ImmKind::Int) {
    out.kind = ptx::Operand::Kind::Immediate;
    out.imm = ptx::truncatedConstant(o, width, "a " + std::to_string(width) + "-bit operand", diags_);
    return true;
  }
  error(diags_, o.loc, "expected a " + std::string(allowImm ? "register or integer" : "register") + ", got '" +
                           o.text + "'");
  return false;
}

void Decoder::unsupportedForm(const ast::Instruction &in, const std::string &full, const std::string &why) {
  error(diags_, in.opcode_loc.line ? in.opcode_loc : in.loc, "unsupported form '" + full + "': " + why);
}

void Decoder::decode(const ast::Instruction &in) {
  const std::string_view op = in.opcode; // (compared by length first: no strlen, no call)
  if (std::vector<ast::Instruction> parts = ptx::expandOperandSelectors(in, selectors_); parts.size() > 1) {
    for (size_t i = 0; i + 1 < parts.size(); ++i) // the selections, for every lane (fresh registers)
      decode(parts[i]);
    return decode(parts.back());
  }
  std::string full = in.opcode;
  for (const std::string &m : in.modifiers)
    full += "." + m;
  // `-%r` negates a source in vmad only (PTX ISA 9.7.18.1.4); nowhere else
  // may it pass for the register itself.
  if (op != "vmad")
    for (const ast::Operand &o : in.operands)
      if (o.minus || std::any_of(o.elems.begin(), o.elems.end(), [](const ast::Operand &e) { return e.minus; })) {
        error(diags_, o.loc, "'" + o.text + "': only vmad negates a source register; '" + full + "' cannot");
        return;
      }
  Stmt s;
  s.loc = in.loc;
  s.text = in.text;
  if (in.guard) {
    s.guard = in.guard->pred;
    s.guardNegated = in.guard->negated;
    typeReg(s.guard, 1, in.guard->loc);
  }
  const std::vector<ast::Operand> &ops = in.operands;
  const ast::SourceLoc at = in.opcode_loc.line ? in.opcode_loc : in.loc;
  auto count = [&](size_t n) {
    if (ops.size() == n)
      return true;
    error(diags_, at, "'" + full + "' expects " + std::to_string(n) + " operands, got " + std::to_string(ops.size()));
    return false;
  };

  if (op == "mov" && ops.size() == 2) {
    if (std::optional<std::pair<Special, unsigned>> sp = specialOf(ops[1])) {
      s.kind = Stmt::Kind::ReadSpecial;
      s.special = sp->first;
      s.dim = sp->second;
      ptx::Operand d;
      if (!regOperand(ops[0], 32, d, false))
        return;
      s.extraToWrite().dst = d.reg;
      k_.body.push_back(std::move(s));
      return;
    }
    const ast::Operand &src = ops[1];
    if ((src.kind == ast::Operand::Kind::Symbol || src.kind == ast::Operand::Kind::Register) &&
        !k_.registers.count(src.name) && (k_.variable(src.name) || k_.param(src.name))) { // (a register wins)
      s.kind = Stmt::Kind::AddressOf;
      s.extraToWrite().symbol = src.name;
      s.regWidth = 64;
      // A shared or local variable's address fits 32 bits (mov.u32 %r, smem).
      const kernel::Variable *var = k_.variable(src.name);
      const ptx::RegisterType *dst =
          ops[0].kind == ast::Operand::Kind::Register ? k_.registers.find(ops[0].name) : nullptr;
      if (var && (var->space == Space::Shared || var->space == Space::Local) && dst && dst->width == 32)
        s.regWidth = 32;
      ptx::Operand d;
      if (!regOperand(ops[0], s.regWidth, d, false))
        return;
      s.extraToWrite().dst = d.reg;
      k_.body.push_back(std::move(s));
      return;
    }
  }
  if (op == "ld" || op == "st" || op == "ldu") {
    decodeMemory(in, full, s);
    return;
  }
  if (op == "atom" || op == "red") {
    decodeAtomic(in, full, s);
    return;
  }
  if (op == "shfl" || op == "vote" || op == "activemask" || op == "redux" ||
      op == "match") {
    decodeWarp(in, full, s);
    return;
  }
  if (op == "cvta") {
    // cvta.space.size / cvta.to.space.size (PTX ISA 9.7.9.17)
    std::vector<std::string> m = in.modifiers;
    if (!m.empty() && m.front() == "to") {
      s.toGeneric = false;
      m.erase(m.begin());
    } else {
      s.toGeneric = true;
    }
    if (m.size() != 2 || (m[1] != "u64" && m[1] != "b64")) {
      unsupportedForm(in, full, "expected cvta[.to].space.u64");
      return;
    }
    if (m[0] == "global")
      s.space = Space::Global;
    else if (m[0] == "shared")
      s.space = Space::Shared;
    else if (m[0] == "local")
      s.space = Space::Local;
    else if (m[0] == "const")
      s.space = Space::Const;
    else if (m[0] == "param")
      s.space = Space::Param;
    else {
      unsupportedForm(in, full, "unknown state space '." + m[0] + "'");
      return;
    }
    s.kind = Stmt::Kind::Cvta;
    s.regWidth = 64;
    ptx::Operand d, a;
    if (!count(2) || !regOperand(ops[0], 64, d, false))
      return;
    if ((ops[1].kind == ast::Operand::Kind::Symbol || ops[1].kind == ast::Operand::Kind::Register) &&
        !k_.registers.count(ops[1].name) && k_.variable(ops[1].name)) { // (a register wins)
      // cvta.shared.u64 %rd, var: the variable's address, then converted.
      s.extraToWrite().symbol = ops[1].name;
    } else if (!regOperand(ops[1], 64, a, false)) {
      return;
    }
    s.extraToWrite().dst = d.reg;
    s.extraToWrite().srcs = {a};
    k_.body.push_back(std::move(s));
    return;
  }
  if (op == "call") {
    decodeCall(in, s, full);
    return;
  }
  if (op == "bra") {
    if (!(in.modifiers.empty() || (in.modifiers.size() == 1 && in.modifiers[0] == "uni")))
      return unsupportedForm(in, full, "expected bra or bra.uni");
    if (!count(1))
      return;
    if (ops[0].kind != ast::Operand::Kind::Symbol) {
      error(diags_, ops[0].loc, "expected a label, got '" + ops[0].text + "'");
      return;
    }
    s.kind = Stmt::Kind::Branch;
    s.extraToWrite().label = ops[0].name;
    k_.body.push_back(std::move(s));
    return;
  }
  if (op == "bar" && in.modifiers == std::vector<std::string>{"warp", "sync"}) {
    // bar.warp.sync membermask (PTX ISA 9.7.13.2): the lanes of the mask
    // meet, and their memory accesses are ordered. A wave runs its lanes in
    // lockstep and keeps its own accesses in order (AMDGPUUsage: wavefront
    // scope needs no code), so only the interpreter has work to do.
    if (ops.size() != 1) {
      error(diags_, in.loc, "'" + full + "' expects 1 operand (the membermask)");
      return;
    }
    ptx::Operand mask;
    if (!regOperand(ops[0], 32, mask, true))
      return;
    s.kind = Stmt::Kind::WarpSync;
    s.extraToWrite().srcs.push_back(mask);
    k_.body.push_back(std::move(s));
    return;
  }
  if (op == "bar" || op == "barrier") {
    // bar.sync a / barrier.sync{.aligned} a: a full-CTA barrier (PTX ISA 9.7.13.1).
    std::vector<std::string> m = in.modifiers;
    if (!m.empty() && m.back() == "aligned")
      m.pop_back();
    if (!m.empty() && m.front() == "red") // bar.red.popc.u32 d, a, {!}c; bar.red.{and,or}.pred p, a, {!}c
      return decodeBarrierReduce(in, full, s, m);
    if (m.size() != 1 || m[0] != "sync" || ops.size() != 1 || ops[0].kind != ast::Operand::Kind::Immediate)
      return unsupportedForm(in, full, "only bar.sync/barrier.sync with a constant barrier and no thread count");
    s.kind = Stmt::Kind::Barrier;
    k_.body.push_back(std::move(s));
    return;
  }
  if (op == "cp" && !in.modifiers.empty() && in.modifiers[0] == "async")
    return decodeAsyncCopy(in, full, s);
  if (op == "nanosleep") {
    // nanosleep.u32 t (PTX ISA, Parallel Synchronization and Communication
    // Instructions: nanosleep): "the sleep duration is
    // approximated, but guaranteed to be in the interval [0, 2*t]", so
    // not sleeping is a conforming translation (CUB's spin-wait backoff).
    if (in.modifiers != std::vector<std::string>{"u32"})
      return unsupportedForm(in, full, "expected nanosleep.u32");
    if (!count(1))
      return;
    if (ops[0].kind != ast::Operand::Kind::Immediate && ops[0].kind != ast::Operand::Kind::Register) {
      error(diags_, ops[0].loc, "expected a register or an immediate, got '" + ops[0].text + "'");
      return;
    }
    s.kind = Stmt::Kind::Nop;
    s.note = "nanosleep: any sleep in [0, 2t] conforms; none";
    k_.body.push_back(std::move(s));
    return;
  }
  if (op == "prefetch" || op == "prefetchu") {
    // prefetch{.space}.{L1,L2} [a], prefetchu.L1 [a] (PTX ISA 9.7.9.15):
    // a hint that brings a line into a cache, with no effect on any value
    // (stdgpu's iterators issue them). None is a conforming translation.
    static const std::set<std::string> allowed = {"global", "local", "L1", "L2", "global::evict_last",
                                                  "global::evict_normal", "L2::evict_last", "L2::evict_normal",
                                                  "tensormap"};
    for (const std::string &m : in.modifiers)
      if (!allowed.count(m))
        return unsupportedForm(in, full, "unexpected modifier '." + m + "'");
    if (!count(1))
      return;
    if (ops[0].kind != ast::Operand::Kind::Address) {
      error(diags_, ops[0].loc, "expected an address [reg+offset] or [symbol+offset], got '" + ops[0].text + "'");
      return;
    }
    s.kind = Stmt::Kind::Nop;
    s.note = "prefetch: a cache hint with no effect on values; none";
    k_.body.push_back(std::move(s));
    return;
  }
  if (op == "membar" || op == "fence") {
    // membar.{cta,gl,sys} (PTX ISA 9.7.13.4) and fence.{sc,acq_rel}.scope:
    // both order every memory access of the thread at the scope. A
    // .cluster scope is served by the wider .gpu one.
    std::vector<std::string> m = in.modifiers;
    if (op == "fence") {
      if (m.size() != 2 || (m[0] != "sc" && m[0] != "acq_rel"))
        return unsupportedForm(in, full, "expected fence.sc or fence.acq_rel with a scope (proxy fences are not supported)");
      m.erase(m.begin());
    }
    if (m.size() != 1 || !count(0))
      return m.size() != 1 ? unsupportedForm(in, full, "expected one scope") : void();
    if (m[0] == "cta")
      s.scope = targets::FenceScope::Cta;
    else if (m[0] == "gl" || m[0] == "gpu" || m[0] == "cluster")
      s.scope = targets::FenceScope::Gpu;
    else if (m[0] == "sys")
      s.scope = targets::FenceScope::Sys;
    else
      return unsupportedForm(in, full, "unknown scope '." + m[0] + "'");
    s.kind = Stmt::Kind::Fence;
    k_.body.push_back(std::move(s));
    return;
  }
  // trap (PTX ISA 9.7.19.2): abort the kernel; the host sees an error.
  if (op == "trap") {
    if (!count(0))
      return;
    s.kind = Stmt::Kind::Trap;
    k_.body.push_back(std::move(s));
    return;
  }
  if (op == "ret" || op == "exit") {
    if (!count(0))
      return;
    s.kind = Stmt::Kind::Return;
    k_.body.push_back(std::move(s));
    return;
  }
  // Everything else must be a rule form: decoded without its guard (the
  // statement has it), from a copy only where something changes.
  std::optional<ast::Instruction> adjusted;
  auto adjust = [&]() -> ast::Instruction & {
    if (!adjusted)
      adjusted = in;
    return *adjusted;
  };
  if (in.guard)
    adjust().guard.reset();
  // mov of floating-point registers moves their bits (PTX ISA 9.7.9.3:
  // mov copies the value unchanged): mov.f32 is mov.b32 (nvcc moves 64-bit
  // integers through .f64 registers so).
  if (op == "mov" && in.modifiers.size() == 1)
    if (const std::string &ty = in.modifiers[0]; ty == "f16" || ty == "f32" || ty == "f64")
      adjust().modifiers[0] = "b" + ty.substr(1);
  std::optional<ptx::Instruction> inst = ptx::decodeInstruction(adjusted ? *adjusted : in, diags_);
  if (!inst || !ptx::typeRegisters(*inst, k_.registers, diags_))
    return;
  s.kind = Stmt::Kind::Compute;
  s.inst = std::move(*inst);
  k_.body.push_back(std::move(s));
}

bool Decoder::decodeAddress(const ast::Operand &addr, Stmt &s) {
  if (addr.kind != ast::Operand::Kind::Address) {
    error(diags_, addr.loc, "expected an address [reg+offset] or [symbol+offset], got '" + addr.text + "'");
    return false;
  }
  if (addr.name.empty()) {
    error(diags_, addr.loc, "absolute addresses are not supported");
    return false;
  }
  s.offset = addr.offset;
  s.extraToWrite().base = addr.name;
  // A declared register wins over a variable of the same name, as in ptxas;
  // registers need no '%' (hand-written PTX: `.reg .u64 in_addr;`).
  if (!k_.registers.count(addr.name) && (k_.param(addr.name) || k_.variable(addr.name))) {
    s.baseIsSymbol = true;
  } else if (addr.name[0] == '%' || k_.registers.count(addr.name)) {
    // Shared and local addresses may be 32-bit registers (nvcc's usual
    // form: mov.u32 %r, smem; ld.shared.u32 [%r+4]).
    const ptx::RegisterType *declared = k_.registers.find(addr.name);
    const bool narrow = (s.space == Space::Shared || s.space == Space::Local) && declared && declared->width == 32;
    typeReg(addr.name, narrow ? 32 : 64, addr.loc);
  } else {
    error(diags_, addr.loc, "unknown variable or parameter '" + addr.name + "'");
    return false;
  }
  return true;
}

void Decoder::decodeAtomic(const ast::Instruction &in, const std::string &full, Stmt &s) {
  const bool red = in.opcode == "red";
  if (!decodeAtomicForm(in, full, s, diags_))
    return;
  const unsigned bits = s.elemBits;
  const size_t values = s.atomicOp == Stmt::AtomicOp::Cas ? 2 : 1;
  const size_t expected = values + (red ? 1 : 2);
  if (in.operands.size() != expected) {
    error(diags_, in.loc, "'" + full + "' expects " + std::to_string(expected) + " operands");
    return;
  }
  size_t next = 0;
  if (!red) {
    ptx::Operand d;
    if (!regOperand(in.operands[next++], bits, d, false))
      return;
    s.extraToWrite().dst = d.reg;
  }
  if (!decodeAddress(in.operands[next++], s))
    return;
  if (s.baseIsSymbol) { // a variable's own space (a parameter's is .param)
    const kernel::Variable *v = k_.variable(s.extra().base);
    const Space own = v ? v->space : Space::Param;
    if (s.space != Space::Generic && s.space != own) {
      error(diags_, in.operands[next - 1].loc, "'" + s.extra().base + "' is not in the space '" + full + "' names");
      return;
    }
    s.space = own;
  }
  if (s.space == Space::Param || s.space == Space::Const || s.space == Space::Local) {
    error(diags_, in.operands[next - 1].loc, "an atomic needs global or shared memory");
    return;
  }
  for (size_t i = 0; i < values; ++i) {
    ptx::Operand o;
    if (!regOperand(in.operands[next++], bits, o, true))
      return;
    s.extraToWrite().values.push_back(o);
  }
  k_.body.push_back(std::move(s));
}

void Decoder::decodeWarp(const ast::Instruction &in, const std::string &full, Stmt &s) {
  bool sync = false;
  if (!decodeWarpForm(in, full, s, sync, diags_))
    return;
  const bool vote = s.kind == Stmt::Kind::WarpVote;
  const bool active = vote && s.voteMode == Stmt::VoteMode::Active;
  const std::vector<ast::Operand> &ops = in.operands;
  if (s.kind == Stmt::Kind::WarpCombine) // d[|p], a, membermask
    return decodeWarpCombine(in, full, s);
  const size_t expected = active ? 1 : (vote ? 2 : 4) + (sync ? 1 : 0);
  if (ops.size() != expected) {
    error(diags_, in.loc, "'" + full + "' expects " + std::to_string(expected) + " operands");
    return;
  }
  ptx::Operand o;
  if (!vote && ops[0].kind == ast::Operand::Kind::Pair) {
    s.extraToWrite().dst = ops[0].name;
    s.extraToWrite().predDst = ops[0].name2;
    typeReg(s.extra().dst, 32, ops[0].loc);
    typeReg(s.extra().predDst, 1, ops[0].loc);
  } else if (regOperand(ops[0], vote && s.voteMode != Stmt::VoteMode::Ballot && !active ? 1 : 32, o, false)) {
    s.extraToWrite().dst = o.reg;
  } else {
    return;
  }
  if (active) {
    // (no source: the membermask below names every lane)
  } else if (vote) {
    ast::Operand a = ops[1];
    s.srcNegated = a.negated;
    a.negated = false;
    if (!regOperand(a, 1, o, false))
      return;
    s.extraToWrite().srcs.push_back(o);
  } else {
    for (size_t i = 1; i < 4; ++i) {
      if (!regOperand(ops[i], 32, o, true))
        return;
      s.extraToWrite().srcs.push_back(o);
    }
  }
  if (sync) {
    if (!regOperand(ops.back(), 32, o, true))
      return;
  } else {
    o = ptx::Operand{};
    o.kind = ptx::Operand::Kind::Immediate;
    o.imm = 0xffffffffu;
    o.loc = in.loc;
  }
  s.extraToWrite().srcs.push_back(o);
  k_.body.push_back(std::move(s));
}

void Decoder::decodeBarrierReduce(const ast::Instruction &in, const std::string &full, Stmt &s,
                                  const std::vector<std::string> &m) {
  const std::vector<ast::Operand> &ops = in.operands;
  const bool popc = m.size() == 3 && m[1] == "popc" && m[2] == "u32";
  const bool logic = m.size() == 3 && (m[1] == "and" || m[1] == "or") && m[2] == "pred";
  if (!popc && !logic)
    return unsupportedForm(in, full, "expected bar.red.popc.u32 or bar.red.{and,or}.pred");
  if (ops.size() == 4)
    return unsupportedForm(in, full, "a thread count (only whole-CTA barriers are translated)");
  if (ops.size() != 3) {
    error(diags_, in.loc, "'" + full + "' expects 3 operands");
    return;
  }
  if (ops[1].kind != ast::Operand::Kind::Immediate)
    return unsupportedForm(in, full, "a barrier number in a register");
  ptx::Operand o;
  if (!regOperand(ops[0], popc ? 32 : 1, o, false))
    return;
  s.extraToWrite().dst = o.reg;
  ast::Operand c = ops[2];
  s.srcNegated = c.negated;
  c.negated = false;
  if (!regOperand(c, 1, o, false))
    return;
  s.extraToWrite().srcs.push_back(o);
  s.kind = Stmt::Kind::Barrier;
  s.barrierReduce = popc ? Stmt::BarrierReduce::Popc : m[1] == "and" ? Stmt::BarrierReduce::And : Stmt::BarrierReduce::Or;
  // The workgroup's reduction goes through one LDS word, laid out like any
  // .shared variable on both sides (the lowering names it).
  if (!k_.variable(kBarrierReduceSlot)) {
    Variable slot;
    slot.name = kBarrierReduceSlot;
    slot.space = Space::Shared;
    slot.size = slot.align = 4;
    slot.loc = in.loc;
    k_.variables.push_back(slot);
  }
  k_.body.push_back(std::move(s));
}

void Decoder::decodeWarpCombine(const ast::Instruction &in, const std::string &full, Stmt &s) {
  const std::vector<ast::Operand> &ops = in.operands;
  if (ops.size() != 3) {
    error(diags_, in.loc, "'" + full + "' expects 3 operands");
    return;
  }
  ptx::Operand o;
  if (ops[0].kind == ast::Operand::Kind::Pair) {
    if (s.combineMode != Stmt::CombineMode::MatchAll) {
      error(diags_, ops[0].loc, "invalid form '" + full + "': only match.all has a predicate destination");
      return;
    }
    s.extraToWrite().dst = ops[0].name;
    s.extraToWrite().predDst = ops[0].name2;
    typeReg(s.extra().dst, 32, ops[0].loc);
    typeReg(s.extra().predDst, 1, ops[0].loc);
  } else if (regOperand(ops[0], 32, o, false)) {
    s.extraToWrite().dst = o.reg;
  } else {
    return;
  }
  if (!regOperand(ops[1], s.elemBits, o, true))
    return;
  s.extraToWrite().srcs.push_back(o);
  if (!regOperand(ops[2], 32, o, true))
    return;
  s.extraToWrite().srcs.push_back(o);
  k_.body.push_back(std::move(s));
}

void Decoder::decodeMemory(const ast::Instruction &in, const std::string &full, Stmt &s) {
  const bool store = in.opcode == "st";
  s.kind = store ? Stmt::Kind::Store : Stmt::Kind::Load;
  s.space = Space::Generic;
  unsigned vec = 1;
  std::optional<ptx::ScalarType> ty;
  for (size_t i = 0; i < in.modifiers.size(); ++i) {
    const std::string &m = in.modifiers[i];
    if (m == "param") s.space = Space::Param;
    else if (m == "global") s.space = Space::Global;
    else if (m == "shared") s.space = Space::Shared;
    else if (m == "local") s.space = Space::Local;
    else if (m == "const") s.space = Space::Const;
    else if (m == "nc") s.nonCoherent = true;
    else if (m == "v2") vec = 2;
    else if (m == "v4") vec = 4;
    else if (m == "ca" || m == "cg" || m == "cs" || m == "lu" || m == "cv" || m == "wb" || m == "wt" || m == "weak")
      continue; // cache hints and the default weak ordering: no effect on a single thread's values
    else if (m == "volatile") {
      s.strong = true;
      s.scope = targets::FenceScope::Sys;
    } else if (m == "relaxed")
      s.strong = true;
    else if ((m == "acquire" && !store) || (m == "release" && store)) {
      s.strong = true; // PTX ISA 9.7.9.8/9: a strong access with the fence half its order names
      s.ordered = true;
    }
    else if (m == "cta") s.scope = targets::FenceScope::Cta;
    else if (m == "gpu" || m == "cluster") s.scope = targets::FenceScope::Gpu;
    else if (m == "sys") s.scope = targets::FenceScope::Sys;
    else if (i + 1 == in.modifiers.size())
      ty = ptx::parseScalarType(m, ptx::FloatTypes::AsBits);
    else
      return unsupportedForm(in, full, "unexpected modifier '." + m + "'");
  }
  if (!ty || ty->cls == TypeClass::Pred)
    return unsupportedForm(in, full, "expected an integer or floating-point type suffix");
  // PTX ISA 9.7.9.8/9: .relaxed takes a scope, and a scope needs .relaxed.
  const bool scoped = std::any_of(in.modifiers.begin(), in.modifiers.end(), [](const std::string &m) {
    return m == "cta" || m == "gpu" || m == "cluster" || m == "sys";
  });
  const bool relaxed = std::find(in.modifiers.begin(), in.modifiers.end(), "relaxed") != in.modifiers.end() || s.ordered;
  const std::string order = s.ordered ? (store ? ".release" : ".acquire") : ".relaxed";
  if (scoped != relaxed)
    return unsupportedForm(in, full,
                           relaxed ? order + " needs a scope (.cta, .gpu or .sys)" : "a scope needs .relaxed, .acquire or .release");
  s.elemBits = ty->bits;
  s.elemType = ty->cls;
  if (in.operands.size() != 2) {
    error(diags_, in.loc, "'" + full + "' expects 2 operands");
    return;
  }
  const ast::Operand &addr = store ? in.operands[0] : in.operands[1];
  const ast::Operand &val = store ? in.operands[1] : in.operands[0];
  if (addr.kind == ast::Operand::Kind::Address && !addr.name.empty() && s.space == Space::Param &&
      callParams_.count(addr.name) && !k_.param(addr.name))
    return decodeCallParam(in, full, s, store, vec, *ty, addr, val);
  if (!decodeAddress(addr, s))
    return;
  if (s.space == Space::Param && !s.baseIsSymbol && store) {
    error(diags_, addr.loc, "st.param needs a call's parameter name");
    return;
  }
  // Registers hold at least 32 bits in this translation; sub-word elements
  // are loaded into (and stored from) the low bits of a 16- or 32-bit register.
  std::vector<const ast::Operand *> members;
  if (val.kind == ast::Operand::Kind::Vector) {
    for (const ast::Operand &e : val.elems)
      members.push_back(&e);
  } else {
    members.push_back(&val);
  }
  if (members.size() != vec) {
    error(diags_, val.loc, "'" + full + "' needs " + std::to_string(vec) + " value(s)");
    return;
  }
  for (const ast::Operand *mo : members) {
    ptx::Operand o;
    unsigned regBits = std::max(ty->bits, 32u);
    const ptx::RegisterType *declared =
        mo->kind == ast::Operand::Kind::Register ? k_.registers.find(mo->name) : nullptr;
    if (declared && ty->bits < 32 && declared->width >= 16)
      regBits = declared->width; // ld.u8 into a .b16 register
    // PTX ISA 5.4.x: a register wider than the type is allowed; a load
    // extends into it (by the type's signedness), a store keeps its low bits.
    if (declared && ty->bits < 64 && declared->width == 64)
      regBits = 64;
    if (!regOperand(*mo, regBits, o, store))
      return;
    s.extraToWrite().values.push_back(o);
  }
  s.regWidth = std::max(ty->bits, 32u);
  k_.body.push_back(std::move(s));
}

void Decoder::decodeAsyncCopy(const ast::Instruction &in, const std::string &full, Stmt &s) {
  const std::vector<std::string> m(in.modifiers.begin() + 1, in.modifiers.end());
  const auto &ops = in.operands;
  // The group bookkeeping: every copy is complete when it is decoded.
  if (m == std::vector<std::string>{"commit_group"} || m == std::vector<std::string>{"wait_all"} ||
      m == std::vector<std::string>{"wait_group"}) {
    const size_t want = m[0] == "wait_group" ? 1 : 0;
    if (ops.size() != want) {
      error(diags_, in.loc, "'" + full + "' expects " + std::to_string(want) + " operand(s)");
      return;
    }
    if (want && ops[0].kind != ast::Operand::Kind::Immediate) {
      error(diags_, ops[0].loc, "expected a constant number of pending groups, got '" + ops[0].text + "'");
      return;
    }
    s.kind = Stmt::Kind::Nop;
    s.note = "cp.async." + m[0] + ": the copies were made when issued; nothing to " +
             (m[0] == "commit_group" ? "group" : "wait for");
    k_.body.push_back(std::move(s));
    return;
  }
  // cp.async.{ca,cg}.shared{::cta}.global{.L2::cache_hint}{.L2::64B/128B/256B}
  //   [dst], [src], cp-size{, src-size}{, cache-policy}
  if (m.size() < 3 || (m[0] != "ca" && m[0] != "cg") || (m[1] != "shared" && m[1] != "shared::cta") ||
      m[2] != "global")
    return unsupportedForm(in, full, "expected cp.async.ca/.cg.shared.global (or commit_group, wait_group, wait_all)");
  bool cacheHint = false;
  for (size_t i = 3; i < m.size(); ++i) {
    if (m[i] == "L2::cache_hint")
      cacheHint = true;
    else if (m[i] != "L2::64B" && m[i] != "L2::128B" && m[i] != "L2::256B")
      return unsupportedForm(in, full, "unexpected modifier '." + m[i] + "'");
  }
  if (ops.size() < 3 || ops.size() > 4u + cacheHint) {
    error(diags_, in.loc, "'" + full + "' expects [dst], [src], a size, an optional source size" +
                              std::string(cacheHint ? " and a cache policy" : ""));
    return;
  }
  if (ops[2].kind != ast::Operand::Kind::Immediate ||
      (ops[2].imm_bits != 4 && ops[2].imm_bits != 8 && ops[2].imm_bits != 16) || (m[0] == "cg" && ops[2].imm_bits != 16)) {
    error(diags_, ops[2].loc, m[0] == "cg" ? "cp.async.cg copies 16 bytes" : "cp.async copies 4, 8 or 16 bytes");
    return;
  }
  const uint64_t bytes = ops[2].imm_bits;
  // The source size: the bytes read, the rest of the copy zeros (PTX ISA:
  // src-size < cp-size zero-fills). Without a cache policy a fourth
  // operand is the source size; with one, the policy comes last.
  bool zeroFill = false;
  if (ops.size() == 4u + cacheHint || (ops.size() == 4 && !cacheHint)) {
    const ast::Operand &n = ops[3];
    if (n.kind != ast::Operand::Kind::Immediate || (n.imm_bits != 0 && n.imm_bits != bytes))
      return unsupportedForm(in, full, "a source size other than 0 or the copy's size (a partial zero fill)");
    zeroFill = n.imm_bits == 0;
  }
  std::vector<ptx::Operand> values;
  for (uint64_t i = 0; i < bytes / 4; ++i) {
    if (zeroFill) {
      values.push_back(immediateOperand(0, in.loc));
      continue;
    }
    const std::string name = "%__cpasync" + std::to_string(asyncCopies_) + "_" + std::to_string(i);
    typeReg(name, 32, in.loc);
    values.push_back(registerOperand(name, in.loc));
  }
  ++asyncCopies_;
  if (!zeroFill) {
    Stmt load = s;
    load.kind = Stmt::Kind::Load;
    load.space = Space::Global;
    load.elemBits = 32;
    load.elemType = TypeClass::B;
    load.regWidth = 32;
    load.extraToWrite().values = values;
    if (!decodeAddress(ops[1], load))
      return;
    k_.body.push_back(std::move(load));
  }
  s.kind = Stmt::Kind::Store;
  s.space = Space::Shared;
  s.elemBits = 32;
  s.elemType = TypeClass::B;
  s.regWidth = 32;
  s.extraToWrite().values = std::move(values);
  if (!decodeAddress(ops[0], s))
    return;
  k_.body.push_back(std::move(s));
}

} // namespace detail

namespace ast = ::ptx::ast;
using detail::Decoder;

std::optional<Kernel> decodeKernel(const ast::Module &m, const ast::Function &f, Diagnostics &diags, bool partial) {
  if (!f.body) {
    error(diags, f.loc, "kernel '" + f.name + "' has no body");
    return std::nullopt;
  }
  return Decoder(m, f, diags, partial).run();
}

size_t decodedStatementEstimate(const ast::Module &m, const ast::Function &f) {
  // (+1: the Nop that may go in front of a body whose first statement is a branch target.)
  return f.body ? detail::inlinedStatementEstimate(m, *f.body) + 1 : 0;
}

} // namespace p2a::kernel
