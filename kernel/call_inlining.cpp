// Calls, inlined (PTX ISA 9.7.12.4 call; 7 "Abstracting the ABI"): the
// callee's body is decoded in place of each call site (decoder.hpp).
#include "kernel/decoder.hpp"

#include "grammar/ast_blocks.hpp"

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/StringMap.h>

#include <algorithm>
#include <optional>

namespace p2a::kernel::detail {

using ptx::TypeClass;

namespace {

// The statements the decoder makes of one instruction, at most: one, but a
// guarded call adds the branch around its copy, and ld/st.param of a call
// sequence one per vector element (three per element of a load narrower
// than 32 bits: see decodeCallParam). (An undercount costs the kernel's
// vector a doubling: KeyHunt's 79k-statement kernels, 50 short, reserved
// 97 MB for 48.)
size_t decodedStatements(const ast::Instruction &in) {
  if (in.opcode == "call")
    return in.guard ? 2 : 1;
  if ((in.opcode != "ld" && in.opcode != "st") ||
      std::find(in.modifiers.begin(), in.modifiers.end(), "param") == in.modifiers.end())
    return 1;
  size_t elements = 1;
  for (const ast::Operand &o : in.operands)
    if (o.kind == ast::Operand::Kind::Vector)
      elements = std::max(elements, o.elems.size());
  const bool narrowLoad = in.opcode == "ld" && std::any_of(in.modifiers.begin(), in.modifiers.end(), [](const std::string &m) {
    return m == "u8" || m == "s8" || m == "b8" || m == "u16" || m == "s16" || m == "b16";
  });
  return elements * (narrowLoad ? 3 : 1);
}

struct InlinedSizes {
  static constexpr size_t kCounting = ~size_t(0);
  explicit InlinedSizes(const ast::Module &module) : m(module) {}
  const ast::Module &m;
  // The module's functions with a body, by name: listed at the first call
  // (most kernels call nothing, and a module may hold thousands).
  std::optional<llvm::StringMap<const ast::Function *>> functions;
  llvm::DenseMap<const ast::Function *, size_t> sizes;

  // (`depth`: calls from the kernel to here; deeper than the decoder
  // inlines, a chain of hostile input's length would exhaust the stack.)
  size_t count(const ast::Block &b, size_t depth) {
    size_t n = 0;
    for (const ast::Statement &s : b.statements) {
      if (const ast::Block *inner = std::get_if<ast::Block>(&s)) {
        n += count(*inner, depth);
      } else if (const ast::Instruction *in = std::get_if<ast::Instruction>(&s)) {
        n += decodedStatements(*in);
        if (in->opcode == "call" && depth < kMaxCallDepth)
          n += callee(*in, depth + 1);
      }
      n = std::min(n, kMaxInlinedStatements);
    }
    return n;
  }
  size_t callee(const ast::Instruction &call, size_t depth) {
    if (!functions)
      functions = functionsWithBody(m);
    for (const ast::Operand &o : call.operands) {
      if (o.kind != ast::Operand::Kind::Symbol)
        continue;
      auto f = functions->find(o.name);
      if (f == functions->end())
        return 0;
      if (auto known = sizes.find(f->second); known != sizes.end())
        return known->second == kCounting ? 0 : known->second;
      sizes[f->second] = kCounting;
      const size_t n = count(*f->second->body, depth);
      sizes[f->second] = n;
      return n;
    }
    return 0;
  }
};

} // namespace

size_t inlinedStatementEstimate(const ast::Module &m, const ast::Block &body) {
  InlinedSizes sizes(m);
  return sizes.count(body, 0);
}

const Decoder::ScopedBody &Decoder::scopedBody(const ast::Function &f) {
  std::unique_ptr<ScopedBody> &known = scopedBodies_[&f];
  if (!known) {
    known = std::make_unique<ScopedBody>();
    const ast::Block &body = ::ptx::ast::scopeBlockRegisters(
        *f.body, known->renamed, [&](const std::string &name) { return outside_.count(f, name); });
    known->statements = ::ptx::ast::flatten(body);
  }
  return *known;
}

void Decoder::decodeCall(const ast::Instruction &in, Stmt &s, const std::string &full) {
  const std::vector<ast::Operand> &ops = in.operands;
  for (const std::string &m : in.modifiers)
    if (m != "uni")
      return unsupportedForm(in, full, "unexpected modifier '." + m + "'");
  size_t k = 0;
  std::vector<std::string> results, args;
  auto names = [&](const ast::Operand &o, std::vector<std::string> &out) {
    for (const ast::Operand &e : o.elems) {
      if (!callParams_.count(e.name)) {
        error(diags_, e.loc, "call argument '" + e.text + "' is not a .param variable of the caller");
        return false;
      }
      out.push_back(e.name);
    }
    return true;
  };
  if (k < ops.size() && ops[k].kind == ast::Operand::Kind::Vector && !names(ops[k++], results))
    return;
  if (k >= ops.size() || ops[k].kind != ast::Operand::Kind::Symbol)
    return unsupportedForm(in, full, "only direct calls to a named .func are supported");
  const ast::Operand &callee = ops[k++];
  if (k < ops.size() && ops[k].kind == ast::Operand::Kind::Vector && !names(ops[k++], args))
    return;
  if (k != ops.size())
    return unsupportedForm(in, full, "unexpected operands after the argument list (a prototype: indirect calls are not supported)");
  if (!functions_)
    functions_ = functionsWithBody(m_);
  const auto found = functions_->find(callee.name);
  const ast::Function *f = found == functions_->end() ? nullptr : found->second;
  if (!f && callee.name == "__assertfail" && args.size() == 5 && results.empty()) {
    // CUDA's assert(): __assertfail(message, file, line, function, charSize)
    // in the CUDA runtime, which prints and aborts the kernel (a trap). The
    // arguments' slots go along for the interpreter's report.
    Stmt t = s;
    t.kind = Stmt::Kind::Trap;
    const unsigned bits[4] = {64, 64, 32, 64};
    for (size_t i = 0; i < 4; ++i) {
      ptx::Operand o;
      o.kind = ptx::Operand::Kind::Register;
      o.reg = callParamSlot(args[i], 0, bits[i]);
      o.loc = callee.loc;
      t.extraToWrite().srcs.push_back(o);
    }
    k_.body.push_back(std::move(t));
    return;
  }
  if (!f && callee.name == "vprintf" && args.size() == 2 && results.size() <= 1) {
    // CUDA's device printf: vprintf(format, argument buffer) in the CUDA
    // runtime. It changes no value the kernel computes, so the kernel
    // translates without it, with a warning (once per kernel); its result
    // (the number of arguments, negative on error) is -1.
    if (!printfWarned_)
      warning(diags_, callee.loc, "printf-dropped",
              "device printf is not translated: this call to vprintf (and any other in kernel '" + f_.name +
                  "') prints nothing and returns -1");
    printfWarned_ = true;
    Stmt t = s;
    if (results.empty()) {
      t.kind = Stmt::Kind::Nop;
      t.note = "vprintf: dropped (-Wprintf-dropped)";
      k_.body.push_back(std::move(t));
    } else {
      const std::string slot = callParamSlot(results[0], 0, 32);
      typeReg(slot, 32, callee.loc);
      t.note = "vprintf: dropped (-Wprintf-dropped); its result is -1";
      pushCompute(t, in, ptx::Form{ptx::Opcode::Mov, TypeClass::B, 32}, registerOperand(slot, callee.loc),
                  {immediateOperand(0xffffffffu, callee.loc)});
    }
    return;
  }
  if (!f) {
    error(diags_, callee.loc, "call to '" + callee.name + "', which has no body in this module (extern functions cannot be inlined)");
    return;
  }
  // Inlining copies a body per call site, so the call tree is bounded:
  // no recursion, at most 16 calls deep, and at most kMaxInlinedCalls
  // copies or kMaxInlinedStatements statements (a chain of functions each
  // calling the next twice doubles the kernel at every level). Past a
  // bound the kernel is one error naming the call chain, not an exhausted
  // memory; the rest of the tree is not visited.
  if (inliningStopped_)
    return;
  std::string chain = f_.name;
  for (const std::string &c : callStack_)
    chain += " -> " + c;
  chain += " -> " + f->name;
  if (std::find(callStack_.begin(), callStack_.end(), f->name) != callStack_.end()) {
    inliningStopped_ = true;
    error(diags_, callee.loc, "recursive call to '" + f->name + "' (" + chain +
                                  "): calls are inlined, so recursion is not supported");
    return;
  }
  if (callStack_.size() >= kMaxCallDepth) {
    inliningStopped_ = true;
    error(diags_, callee.loc, "calls nested more than " + std::to_string(kMaxCallDepth) + " deep (" + chain +
                                  "): calls are inlined");
    return;
  }
  if (calls_ >= kMaxInlinedCalls || k_.body.size() > kMaxInlinedStatements) {
    inliningStopped_ = true;
    error(diags_, callee.loc,
          "inlining '" + f->name + "' here (" + chain + ") makes kernel '" + f_.name +
              "' inline more than " + std::to_string(kMaxInlinedCalls) + " calls or " +
              std::to_string(kMaxInlinedStatements) + " statements: calls are inlined, and this call tree repeats "
              "its bodies too often");
    return;
  }
  std::vector<std::string> formals, formalResults;
  for (const ast::Declaration &d : f->params)
    for (const ast::Declarator &dr : d.declarators)
      formals.push_back(dr.name);
  for (const ast::Declaration &d : f->returns)
    for (const ast::Declarator &dr : d.declarators)
      formalResults.push_back(dr.name);
  if (formals.size() != args.size() || formalResults.size() != results.size()) {
    error(diags_, in.loc,
          "call to '" + f->name + "' passes " + std::to_string(args.size()) + " argument(s) and " +
              std::to_string(results.size()) + " result(s); it declares " + std::to_string(formals.size()) +
              " and " + std::to_string(formalResults.size()));
    return;
  }
  // The copy's names: registers %x -> %__cN_x, labels and its own .param
  // variables L -> __cN_L; formals and results -> the caller's variables.
  const std::string tag = "__c" + std::to_string(++calls_) + "_";
  Rename rn;
  rn.regPrefix = "%" + tag;
  rn.symPrefix = tag;
  for (size_t i = 0; i < formals.size(); ++i)
    rn.symbols[formals[i]] = args[i];
  for (size_t i = 0; i < formalResults.size(); ++i)
    rn.symbols[formalResults[i]] = results[i];
  const std::vector<const ast::Statement *> &stmts = scopedBody(*f).statements;
  for (const ast::Statement *st : stmts) {
    if (const ast::Label *l = std::get_if<ast::Label>(st))
      rn.symbols[l->name] = tag + l->name;
    if (const ast::Declaration *d = std::get_if<ast::Declaration>(st)) {
      if (d->space == "param")
        for (const ast::Declarator &dr : d->declarators)
          rn.symbols[dr.name] = tag + dr.name;
      if (d->space == "reg")
        for (const ast::Declarator &dr : d->declarators)
          if (dr.name.empty() || dr.name[0] != '%')
            rn.plainRegs.insert(dr.name); // (registers named without '%' are the callee's too)
    }
  }
  const std::string end = tag + "return";
  // A guarded call skips the copy where the guard fails.
  if (!s.guard.empty()) {
    Stmt skip = s;
    skip.kind = Stmt::Kind::Branch;
    skip.guardNegated = !s.guardNegated;
    skip.extraToWrite().label = end;
    k_.body.push_back(std::move(skip));
  }
  std::vector<const ast::Statement *> renamedDecls;
  std::vector<ast::Statement> copies;
  copies.reserve(stmts.size());
  for (const ast::Statement *st : stmts) {
    if (const ast::Declaration *d = std::get_if<ast::Declaration>(st)) {
      ast::Declaration c = *d;
      for (ast::Declarator &dr : c.declarators)
        dr.name = d->space == "reg" ? rn.reg(dr.name) : rn.sym(dr.name);
      copies.emplace_back(std::move(c));
    }
  }
  for (const ast::Statement &c : copies)
    renamedDecls.push_back(&c);
  declare(renamedDecls);
  callStack_.push_back(f->name);
  for (const ast::Statement *st : stmts) {
    if (const ast::Label *l = std::get_if<ast::Label>(st)) {
      defineLabel(rn.sym(l->name), l->loc);
    } else if (const ast::Instruction *ci = std::get_if<ast::Instruction>(st)) {
      ast::Instruction c = *ci;
      if (c.guard)
        c.guard->pred = rn.reg(c.guard->pred);
      for (ast::Operand &o : c.operands)
        rn.apply(o);
      if (c.opcode == "ret") { // leave the copy
        c.opcode = "bra";
        c.modifiers.clear();
        ast::Operand target;
        target.kind = ast::Operand::Kind::Symbol;
        target.name = end;
        target.text = "(return from " + f->name + ")";
        target.loc = c.loc;
        c.operands = {target};
      }
      decode(c);
    }
  }
  callStack_.pop_back();
  k_.labels[end] = static_cast<unsigned>(k_.body.size());
}

ptx::Operand registerOperand(const std::string &name, ::ptx::ast::SourceLoc loc) {
  ptx::Operand o;
  o.kind = ptx::Operand::Kind::Register;
  o.reg = name;
  o.loc = loc;
  return o;
}

ptx::Operand immediateOperand(uint64_t v, ::ptx::ast::SourceLoc loc) {
  ptx::Operand o;
  o.kind = ptx::Operand::Kind::Immediate;
  o.imm = v;
  o.loc = loc;
  return o;
}

void Decoder::pushCompute(const Stmt &like, const ast::Instruction &in, const ptx::Form &f, const ptx::Operand &d,
                          std::vector<ptx::Operand> srcs) {
  Stmt m = like;
  m.kind = Stmt::Kind::Compute;
  m.inst = ptx::Instruction{};
  m.inst.form = f;
  m.inst.loc = in.loc;
  m.inst.text = in.text;
  m.inst.dsts = {d};
  m.inst.srcs = std::move(srcs);
  k_.body.push_back(std::move(m));
}

std::string callParamSlot(const std::string &param, int64_t offset, unsigned bits) {
  return "%__param_" + param + "_" + std::to_string(offset) + "_b" + std::to_string(bits);
}

void Decoder::decodeCallParam(const ast::Instruction &in, const std::string &full, Stmt &s, bool store, unsigned vec,
                              const ptx::ScalarType &ty, const ast::Operand &addr, const ast::Operand &val) {
  std::vector<const ast::Operand *> members;
  if (val.kind == ast::Operand::Kind::Vector)
    for (const ast::Operand &e : val.elems)
      members.push_back(&e);
  else
    members.push_back(&val);
  if (members.size() != vec) {
    error(diags_, val.loc, "'" + full + "' needs " + std::to_string(vec) + " value(s)");
    return;
  }
  // A slot is named by offset and width (call sequences reuse names like
  // param0 with other types). 8- and 16-bit values live in 16-bit slots.
  auto slotName = [&](int64_t off, unsigned bits) { return callParamSlot(addr.name, off, bits); };
  auto reg = [&](const std::string &name) { return registerOperand(name, addr.loc); };
  auto imm = [&](uint64_t v) { return immediateOperand(v, addr.loc); };
  auto emit = [&](ptx::Form f, const ptx::Operand &d, std::vector<ptx::Operand> srcs) {
    pushCompute(s, in, f, d, std::move(srcs));
  };
  auto cvt = [](TypeClass cls, unsigned to, unsigned from) {
    ptx::Form f{ptx::Opcode::Cvt, to > from ? cls : TypeClass::U, to};
    f.fromType = f.type;
    f.fromWidth = from;
    return f;
  };
  auto declaredWidth = [&](const ast::Operand &o, unsigned fallback) {
    const ptx::RegisterType *declared =
        o.kind == ast::Operand::Kind::Register ? k_.registers.find(o.name) : nullptr;
    return declared ? declared->width : fallback;
  };
  for (size_t e = 0; e < members.size(); ++e) {
    const int64_t off = addr.offset + int64_t(e * ty.bits / 8);
    const unsigned slotBits = std::max(ty.bits, 16u);
    const std::string slot = slotName(off, ty.bits);
    if (const unsigned dstBits = declaredWidth(*members[e], ty.bits); !store && ty.bits == 32 && dstBits == 64) {
      // A 32-bit load into a 64-bit register (`ld.param.s32 %rd1, [a]`, as
      // nvcc reads an int argument it widens): extended by the load's type
      // (PTX ISA 9.7.9.8, ld: a wider destination is sign- or zero-extended).
      ptx::Operand d;
      if (!regOperand(*members[e], 64, d, false))
        return;
      typeReg(slot, 32, addr.loc);
      emit(cvt(ty.cls == TypeClass::S ? TypeClass::S : TypeClass::U, 64, 32), d, {reg(slot)});
      continue;
    }
    if (ty.bits >= 32 || store) {
      // A store of 8 or 16 bits keeps the low 16 bits of its register (PTX
      // ISA 5.4: a register wider than the type stores its low bits).
      const unsigned regBits = ty.bits >= 32 ? ty.bits : std::min(declaredWidth(*members[e], 16), 32u);
      ptx::Operand value;
      if (!regOperand(*members[e], regBits, value, store))
        return;
      typeReg(slot, slotBits, addr.loc);
      if (store && regBits == 32 && slotBits == 16)
        emit(cvt(TypeClass::U, 16, 32), reg(slot), {value});
      else
        emit(ptx::Form{ptx::Opcode::Mov, TypeClass::B, slotBits}, store ? reg(slot) : value,
             {store ? value : reg(slot)});
      continue;
    }
    // An 8- or 16-bit load (nvcc passes a char as `.param .b32`, stored
    // with st.param.b32 and read back with ld.param.u8): the low bits of
    // the slot stored at this offset, extended by the load's type into the
    // destination register (PTX ISA 5.4.x).
    std::string from = slot;
    for (unsigned w : {ty.bits, 32u, 64u, 16u, 8u})
      if (k_.registers.count(slotName(off, w))) {
        from = slotName(off, w);
        break;
      }
    if (!k_.registers.count(from))
      typeReg(from, slotBits, addr.loc);
    const unsigned fromBits = k_.registers.at(from).width;
    const std::string t = "%__param_narrow_" + std::to_string(k_.body.size());
    typeReg(t, 32, addr.loc);
    if (fromBits == 32)
      emit(ptx::Form{ptx::Opcode::Mov, TypeClass::B, 32}, reg(t), {reg(from)});
    else
      emit(cvt(TypeClass::U, 32, fromBits), reg(t), {reg(from)});
    const bool sgn = ty.cls == TypeClass::S;
    emit(ptx::Form{ptx::Opcode::Bfe, sgn ? TypeClass::S : TypeClass::U, 32}, reg(t), {reg(t), imm(0), imm(ty.bits)});
    const unsigned dstBits = declaredWidth(*members[e], 16);
    ptx::Operand d;
    if (!regOperand(*members[e], dstBits, d, false))
      return;
    if (dstBits == 32)
      emit(ptx::Form{ptx::Opcode::Mov, TypeClass::B, 32}, d, {reg(t)});
    else
      emit(cvt(sgn ? TypeClass::S : TypeClass::U, dstBits, 32), d, {reg(t)});
  }
}

} // namespace p2a::kernel::detail
