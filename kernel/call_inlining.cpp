// Calls, inlined (PTX ISA 9.7.12.4 call; 7 "Abstracting the ABI"): the
// callee's body is decoded in place of each call site (decoder.hpp).
#include "kernel/decoder.hpp"

#include "grammar/ast_blocks.hpp"

#include <algorithm>

namespace p2a::kernel::detail {

using ptx::TypeClass;

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
  const ast::Function *f = nullptr;
  for (const ast::Function &g : m_.functions)
    if (g.name == callee.name && !g.is_entry && g.body)
      f = &g;
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
  const ast::Block calleeBody = ::ptx::ast::scopeBlockRegisters(*f->body, namesOutsideBody(m_, *f));
  const std::vector<const ast::Statement *> stmts = ::ptx::ast::flatten(calleeBody);
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
    skip.label = end;
    k_.body.push_back(skip);
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

void Decoder::decodeCallParam(const ast::Instruction &in, const std::string &full, Stmt &s, bool store, unsigned vec,
                              const ptx::ScalarType &ty, const ast::Operand &addr, const ast::Operand &val) {
  if (ty.bits < 32)
    return unsupportedForm(in, full, "call parameters narrower than 32 bits are not supported");
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
  for (size_t e = 0; e < members.size(); ++e) {
    // (Call sequences reuse names like param0 with other types: the
    // width is part of the slot.)
    const std::string slot = "%__param_" + addr.name + "_" + std::to_string(addr.offset + int64_t(e * ty.bits / 8)) +
                             "_b" + std::to_string(ty.bits);
    Stmt m = s;
    m.kind = Stmt::Kind::Compute;
    m.inst = ptx::Instruction{};
    m.inst.form = ptx::Form{ptx::Opcode::Mov, TypeClass::B, ty.bits};
    m.inst.loc = in.loc;
    m.inst.text = in.text;
    ptx::Operand reg;
    if (!regOperand(*members[e], ty.bits, reg, store))
      return;
    ptx::Operand slotOp;
    slotOp.kind = ptx::Operand::Kind::Register;
    slotOp.reg = slot;
    slotOp.loc = addr.loc;
    typeReg(slot, ty.bits, addr.loc);
    m.inst.dsts = {store ? slotOp : reg};
    m.inst.srcs = {store ? reg : slotOp};
    k_.body.push_back(m);
  }
}

} // namespace p2a::kernel::detail
