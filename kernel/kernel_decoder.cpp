// A PTX function's AST -> Kernel (kernel_ir.hpp): parameters at CUDA's
// offsets, variables, statements decoded and typed, calls inlined.
#include "kernel/kernel_ir.hpp"

#include "kernel/atomic_forms.hpp"
#include "kernel/warp_forms.hpp"
#include "kernel/decoder_support.hpp"

#include "grammar/ast_blocks.hpp"
#include "semantics/bitvec.hpp"

#include <algorithm>
#include <cctype>
#include <set>

namespace p2a::kernel {

namespace ast = ::ptx::ast;
using ptx::TypeClass;

namespace {

using namespace detail;

class Decoder {
public:
  Decoder(const ast::Module &m, const ast::Function &f, Diagnostics &diags, bool partial)
      : m_(m), f_(f), diags_(diags), partial_(partial) {}

  std::optional<Kernel> run() {
    k_.name = f_.name;
    k_.loc = f_.name_loc.line ? f_.name_loc : f_.loc;
    const size_t before = diags_.size();
    decodeParams();
    for (const ast::Declaration &d : m_.globals)
      for (const ast::Declarator &dr : d.declarators)
        if (std::optional<Variable> v = variableOf(d, dr, diags_))
          k_.variables.push_back(*v);
    body_ = ::ptx::ast::scopeBlockRegisters(*f_.body, namesOutsideBody(m_, f_));
    const std::vector<const ast::Statement *> stmts = ::ptx::ast::flatten(body_);
    declare(stmts);
    for (const ast::Statement *s : stmts) {
      if (const ast::Label *l = std::get_if<ast::Label>(s))
        defineLabel(l->name, l->loc);
      else if (const ast::Instruction *in = std::get_if<ast::Instruction>(s))
        decode(*in);
    }
    for (Stmt &s : k_.body)
      if (s.kind == Stmt::Kind::Branch) {
        auto it = k_.labels.find(s.label);
        if (it == k_.labels.end()) {
          error(diags_, s.loc, "branch to undefined label '" + s.label + "'");
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
    if (diags_.size() != before && !partial_)
      return std::nullopt;
    return std::move(k_);
  }

private:
  // Register, variable and call-parameter declarations of a body.
  void declare(const std::vector<const ast::Statement *> &stmts) {
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

  // A variable whose initializer could not be read fails the kernel only if
  // a statement addresses it (inlined callees' statements included).
  void reportUnreadableVariables() {
    for (const Variable &v : k_.variables) {
      if (v.initError.empty())
        continue;
      const bool used = std::any_of(k_.body.begin(), k_.body.end(), [&](const Stmt &st) {
        return st.symbol == v.name || (st.baseIsSymbol && st.base == v.name);
      });
      if (used)
        error(diags_, v.loc, v.initError);
    }
  }

  // ---- calls: inlined (PTX ISA 9.7.12.4 call; 7 "Abstracting the ABI") ----
  //
  // `call (ret), f, (a, b)` with `.param` variables the caller stored into
  // and loads back from: the callee's body is decoded in place, its
  // registers, labels and .param names renamed apart per call site, its
  // formal parameters and results standing for the caller's variables, and
  // `ret` a branch to the end of the copy. A .param variable holds values
  // in registers of its own, one per offset and width ("%__param_NAME_OFF_bW"), so
  // st.param / ld.param become moves.
  void decodeCall(const ast::Instruction &in, Stmt &s, const std::string &full) {
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

  struct Rename {
    std::string regPrefix, symPrefix;
    std::map<std::string, std::string> symbols; // labels, .param variables
    std::set<std::string> plainRegs;            // the callee's registers declared without '%'
    // %x -> %__cN_x; a register declared without '%', x -> %__cN_#x ('#' is
    // in no PTX identifier, so the two kinds of name cannot meet).
    std::string reg(const std::string &n) const {
      if (n.size() > 1 && n[0] == '%')
        return regPrefix + n.substr(1);
      return plainRegs.count(n) ? regPrefix + "#" + n : n;
    }
    std::string sym(const std::string &n) const {
      auto it = symbols.find(n);
      return it == symbols.end() ? n : it->second;
    }
    void apply(ast::Operand &o) const {
      switch (o.kind) {
      case ast::Operand::Kind::Register:
      case ast::Operand::Kind::Pair:
        if (specialOf(o))
          break; // %tid.x and the other special registers are the thread's own, not the callee's
        o.name = symbols.count(o.name) ? sym(o.name) : reg(o.name);
        if (!o.name2.empty())
          o.name2 = reg(o.name2);
        break;
      case ast::Operand::Kind::Symbol: o.name = sym(o.name); break;
      case ast::Operand::Kind::Address: o.name = symbols.count(o.name) ? sym(o.name) : reg(o.name); break;
      case ast::Operand::Kind::Vector:
        for (ast::Operand &e : o.elems)
          apply(e);
        break;
      default: break;
      }
    }
  };

  // st.param / ld.param on a call's .param variable: moves to and from the
  // variable's registers, element by element.
  void decodeCallParam(const ast::Instruction &in, const std::string &full, Stmt &s, bool store, unsigned vec,
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

  // The most statements a kernel may have once its calls are inlined: real
  // kernels have tens of thousands; this many keep the decoder under 1 GiB.
  static constexpr size_t kMaxInlinedStatements = 400000;
  // ... and the most call sites inlined into one kernel (a chain of
  // functions each calling the next twice doubles them at every level).
  static constexpr unsigned kMaxInlinedCalls = 10000;
  static constexpr size_t kMaxCallDepth = 16;

  // A label at the next statement. The kernel is decoded flat, so one name
  // in two { } blocks (valid PTX: labels are block-local) would leave the
  // branches of one block jumping into the other: an error instead.
  void defineLabel(const std::string &name, ::ptx::ast::SourceLoc loc) {
    if (!k_.labels.emplace(name, static_cast<unsigned>(k_.body.size())).second)
      error(diags_, loc, "label '" + name + "' is defined in two blocks of '" + f_.name +
                             "': labels local to a { } block are not supported yet");
  }

  // The most parameter bytes a CUDA kernel may take (CUDA Programming Guide,
  // "Function Parameters": 32,764 since CUDA 12.1 on Volta and later).
  static constexpr uint64_t kMaxParamBlock = 32764;

  void decodeParams() {
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

  void typeReg(const std::string &name, unsigned width, ::ptx::ast::SourceLoc loc) {
    auto it = k_.registers.find(name);
    if (it == k_.registers.end()) {
      k_.registers[name] = ptx::RegisterType{width == 1 ? TypeClass::Pred : TypeClass::B, width};
      return;
    }
    if (it->second.width != width)
      error(diags_, loc,
            "register " + name + " is " + std::to_string(it->second.width) + "-bit but is used as " +
                std::to_string(width) + "-bit here");
  }

  bool regOperand(const ast::Operand &o, unsigned width, ptx::Operand &out, bool allowImm) {
    out.loc = o.loc;
    if (o.kind == ast::Operand::Kind::Register && !o.element && !o.negated) {
      out.kind = ptx::Operand::Kind::Register;
      out.reg = o.name;
      typeReg(o.name, width, o.loc);
      return true;
    }
    if (allowImm && o.kind == ast::Operand::Kind::Immediate && o.imm_kind == ast::Operand::ImmKind::Int) {
      if (!ptx::immediateFits(o.imm_bits, width))
        warning(diags_, o.loc, "constant-truncated",
                "integer constant " + o.text + " does not fit a " + std::to_string(width) + "-bit operand; its low " +
                    std::to_string(width) + " bits are used, as ptxas does");
      out.kind = ptx::Operand::Kind::Immediate;
      out.imm = o.imm_bits & sem::maskOf(width);
      return true;
    }
    error(diags_, o.loc, "expected a " + std::string(allowImm ? "register or integer" : "register") + ", got '" +
                             o.text + "'");
    return false;
  }

  void unsupportedForm(const ast::Instruction &in, const std::string &full, const std::string &why) {
    error(diags_, in.opcode_loc.line ? in.opcode_loc : in.loc, "unsupported form '" + full + "': " + why);
  }

  void decode(const ast::Instruction &in) {
    std::string full = in.opcode;
    for (const std::string &m : in.modifiers)
      full += "." + m;
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

    if (in.opcode == "mov" && ops.size() == 2) {
      if (std::optional<std::pair<Special, unsigned>> sp = specialOf(ops[1])) {
        s.kind = Stmt::Kind::ReadSpecial;
        s.special = sp->first;
        s.dim = sp->second;
        ptx::Operand d;
        if (!regOperand(ops[0], 32, d, false))
          return;
        s.dst = d.reg;
        k_.body.push_back(s);
        return;
      }
      const ast::Operand &src = ops[1];
      if ((src.kind == ast::Operand::Kind::Symbol || src.kind == ast::Operand::Kind::Register) &&
          !k_.registers.count(src.name) && (k_.variable(src.name) || k_.param(src.name))) { // (a register wins)
        s.kind = Stmt::Kind::AddressOf;
        s.symbol = src.name;
        s.regWidth = 64;
        // A shared or local variable's address fits 32 bits (mov.u32 %r, smem).
        const kernel::Variable *var = k_.variable(src.name);
        auto it = ops[0].kind == ast::Operand::Kind::Register ? k_.registers.find(ops[0].name) : k_.registers.end();
        if (var && (var->space == Space::Shared || var->space == Space::Local) && it != k_.registers.end() &&
            it->second.width == 32)
          s.regWidth = 32;
        ptx::Operand d;
        if (!regOperand(ops[0], s.regWidth, d, false))
          return;
        s.dst = d.reg;
        k_.body.push_back(s);
        return;
      }
    }
    if (in.opcode == "ld" || in.opcode == "st" || in.opcode == "ldu") {
      decodeMemory(in, full, s);
      return;
    }
    if (in.opcode == "atom" || in.opcode == "red") {
      decodeAtomic(in, full, s);
      return;
    }
    if (in.opcode == "shfl" || in.opcode == "vote") {
      decodeWarp(in, full, s);
      return;
    }
    if (in.opcode == "cvta") {
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
        s.symbol = ops[1].name;
      } else if (!regOperand(ops[1], 64, a, false)) {
        return;
      }
      s.dst = d.reg;
      s.srcs = {a};
      k_.body.push_back(s);
      return;
    }
    if (in.opcode == "call") {
      decodeCall(in, s, full);
      return;
    }
    if (in.opcode == "bra") {
      if (!(in.modifiers.empty() || (in.modifiers.size() == 1 && in.modifiers[0] == "uni")))
        return unsupportedForm(in, full, "expected bra or bra.uni");
      if (!count(1))
        return;
      if (ops[0].kind != ast::Operand::Kind::Symbol) {
        error(diags_, ops[0].loc, "expected a label, got '" + ops[0].text + "'");
        return;
      }
      s.kind = Stmt::Kind::Branch;
      s.label = ops[0].name;
      k_.body.push_back(s);
      return;
    }
    if (in.opcode == "bar" || in.opcode == "barrier") {
      // bar.sync a / barrier.sync{.aligned} a: a full-CTA barrier (PTX ISA 9.7.13.1).
      std::vector<std::string> m = in.modifiers;
      if (!m.empty() && m.back() == "aligned")
        m.pop_back();
      if (m.size() != 1 || m[0] != "sync" || ops.size() != 1 || ops[0].kind != ast::Operand::Kind::Immediate)
        return unsupportedForm(in, full, "only bar.sync/barrier.sync with a constant barrier and no thread count");
      s.kind = Stmt::Kind::Barrier;
      k_.body.push_back(s);
      return;
    }
    if (in.opcode == "nanosleep") {
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
      k_.body.push_back(s);
      return;
    }
    if (in.opcode == "membar" || in.opcode == "fence") {
      // membar.{cta,gl,sys} (PTX ISA 9.7.13.4) and fence.{sc,acq_rel}.scope:
      // both order every memory access of the thread at the scope. A
      // .cluster scope is served by the wider .gpu one.
      std::vector<std::string> m = in.modifiers;
      if (in.opcode == "fence") {
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
      k_.body.push_back(s);
      return;
    }
    if (in.opcode == "ret" || in.opcode == "exit") {
      if (!count(0))
        return;
      s.kind = Stmt::Kind::Return;
      k_.body.push_back(s);
      return;
    }
    // Everything else must be a rule form.
    ast::Instruction plain = in;
    plain.guard.reset();
    // mov of floating-point registers moves their bits (PTX ISA 9.7.9.3:
    // mov copies the value unchanged): mov.f32 is mov.b32 (nvcc moves 64-bit
    // integers through .f64 registers so).
    if (plain.opcode == "mov" && plain.modifiers.size() == 1)
      if (const std::string &ty = plain.modifiers[0]; ty == "f16" || ty == "f32" || ty == "f64")
        plain.modifiers[0] = "b" + ty.substr(1);
    std::optional<ptx::Instruction> inst = ptx::decodeInstruction(plain, diags_);
    if (!inst || !ptx::typeRegisters(*inst, k_.registers, diags_))
      return;
    s.kind = Stmt::Kind::Compute;
    s.inst = *inst;
    k_.body.push_back(s);
  }

  // The address operand of a memory access, [reg+offset] or [symbol+offset],
  // into s.base, s.offset and s.baseIsSymbol.
  bool decodeAddress(const ast::Operand &addr, Stmt &s) {
    if (addr.kind != ast::Operand::Kind::Address) {
      error(diags_, addr.loc, "expected an address [reg+offset] or [symbol+offset], got '" + addr.text + "'");
      return false;
    }
    if (addr.name.empty()) {
      error(diags_, addr.loc, "absolute addresses are not supported");
      return false;
    }
    s.offset = addr.offset;
    s.base = addr.name;
    // A declared register wins over a variable of the same name, as in ptxas;
    // registers need no '%' (hand-written PTX: `.reg .u64 in_addr;`).
    if (!k_.registers.count(addr.name) && (k_.param(addr.name) || k_.variable(addr.name))) {
      s.baseIsSymbol = true;
    } else if (addr.name[0] == '%' || k_.registers.count(addr.name)) {
      // Shared and local addresses may be 32-bit registers (nvcc's usual
      // form: mov.u32 %r, smem; ld.shared.u32 [%r+4]).
      auto it = k_.registers.find(addr.name);
      const bool narrow = (s.space == Space::Shared || s.space == Space::Local) && it != k_.registers.end() &&
                          it->second.width == 32;
      typeReg(addr.name, narrow ? 32 : 64, addr.loc);
    } else {
      error(diags_, addr.loc, "unknown variable or parameter '" + addr.name + "'");
      return false;
    }
    return true;
  }

  // atom / red (PTX ISA 9.7.13.5, 9.7.13.6): an integer read-modify-write of
  // one element in global or shared memory (or through a generic address).
  // atom returns the old value; red does not. Without .sem the access is
  // .relaxed; the scope defaults to .gpu.
  void decodeAtomic(const ast::Instruction &in, const std::string &full, Stmt &s) {
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
      s.dst = d.reg;
    }
    if (!decodeAddress(in.operands[next++], s))
      return;
    if (s.baseIsSymbol) { // a variable's own space (a parameter's is .param)
      const kernel::Variable *v = k_.variable(s.base);
      const Space own = v ? v->space : Space::Param;
      if (s.space != Space::Generic && s.space != own) {
        error(diags_, in.operands[next - 1].loc, "'" + s.base + "' is not in the space '" + full + "' names");
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
      s.values.push_back(o);
    }
    k_.body.push_back(s);
  }

  // shfl / vote (warp_forms.cpp reads the form): d[|p], a, b, c or d, {!}a,
  // then the membermask (every lane for the forms without .sync).
  void decodeWarp(const ast::Instruction &in, const std::string &full, Stmt &s) {
    bool sync = false;
    if (!decodeWarpForm(in, full, s, sync, diags_))
      return;
    const bool vote = s.kind == Stmt::Kind::WarpVote;
    const std::vector<ast::Operand> &ops = in.operands;
    const size_t expected = (vote ? 2 : 4) + (sync ? 1 : 0);
    if (ops.size() != expected) {
      error(diags_, in.loc, "'" + full + "' expects " + std::to_string(expected) + " operands");
      return;
    }
    ptx::Operand o;
    if (!vote && ops[0].kind == ast::Operand::Kind::Pair) {
      s.dst = ops[0].name;
      s.predDst = ops[0].name2;
      typeReg(s.dst, 32, ops[0].loc);
      typeReg(s.predDst, 1, ops[0].loc);
    } else if (regOperand(ops[0], vote && s.voteMode != Stmt::VoteMode::Ballot ? 1 : 32, o, false)) {
      s.dst = o.reg;
    } else {
      return;
    }
    if (vote) {
      ast::Operand a = ops[1];
      s.srcNegated = a.negated;
      a.negated = false;
      if (!regOperand(a, 1, o, false))
        return;
      s.srcs.push_back(o);
    } else {
      for (size_t i = 1; i < 4; ++i) {
        if (!regOperand(ops[i], 32, o, true))
          return;
        s.srcs.push_back(o);
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
    s.srcs.push_back(o);
    k_.body.push_back(s);
  }

  void decodeMemory(const ast::Instruction &in, const std::string &full, Stmt &s) {
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
      else if (m == "ca" || m == "cg" || m == "cs" || m == "lu" || m == "cv" || m == "wb" || m == "wt" ||
               m == "weak" || m == "volatile")
        continue; // cache and ordering hints: no effect on a single thread's values
      else if (i + 1 == in.modifiers.size())
        ty = ptx::parseScalarType(m, ptx::FloatTypes::AsBits);
      else
        return unsupportedForm(in, full, "unexpected modifier '." + m + "'");
    }
    if (!ty || ty->cls == TypeClass::Pred)
      return unsupportedForm(in, full, "expected an integer or floating-point type suffix");
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
    if (s.space == Space::Param && !s.baseIsSymbol) {
      error(diags_, addr.loc, "ld.param needs a kernel parameter name");
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
      auto it = mo->kind == ast::Operand::Kind::Register ? k_.registers.find(mo->name) : k_.registers.end();
      if (it != k_.registers.end() && ty->bits < 32 && it->second.width >= 16)
        regBits = it->second.width; // ld.u8 into a .b16 register
      // PTX ISA 5.4.x: a register wider than the type is allowed; a load
      // extends into it (by the type's signedness), a store keeps its low bits.
      if (it != k_.registers.end() && ty->bits < 64 && it->second.width == 64)
        regBits = 64;
      if (!regOperand(*mo, regBits, o, store))
        return;
      s.values.push_back(o);
    }
    s.regWidth = std::max(ty->bits, 32u);
    k_.body.push_back(s);
  }

  const ast::Module &m_;
  const ast::Function &f_;
  ast::Block body_; // f_'s body with block-scoped registers renamed apart (scopeBlockRegisters)
  Diagnostics &diags_;
  bool partial_ = false;
  Kernel k_;
  std::set<std::string> callParams_;    // .param variables of call sequences (after renaming)
  std::vector<std::string> callStack_;  // functions being inlined
  unsigned calls_ = 0;                  // call sites inlined so far
  bool inliningStopped_ = false;        // the inlined size passed its cap
};

} // namespace

std::optional<Kernel> decodeKernel(const ast::Module &m, const ast::Function &f, Diagnostics &diags, bool partial) {
  if (!f.body) {
    error(diags, f.loc, "kernel '" + f.name + "' has no body");
    return std::nullopt;
  }
  return Decoder(m, f, diags, partial).run();
}

} // namespace p2a::kernel
