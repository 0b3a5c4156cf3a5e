#include "kernel/transforms/local_array_promotion.hpp"

#include "kernel/analysis/dataflow.hpp"

#include <algorithm>
#include <bit>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace p2a::kernel {

namespace {

// What is known of an unsigned register value: at most `max`, and a
// multiple of 2^zeros.
struct Bounds {
  uint64_t max = ~uint64_t(0);
  unsigned zeros = 0;
};

uint64_t allOnes(unsigned bits) { return bits >= 64 ? ~uint64_t(0) : (uint64_t(1) << bits) - 1; }

// An address into a local variable: its start, plus `offset`, plus the
// value register `index` held when statement `indexAt` added it; in the
// generic space (after a cvta.local: nvcc's %SP, and every pointer to a
// local array passed to a helper) or the local one.
struct LocalAddress {
  std::string variable;
  int64_t offset = 0;
  std::string index;
  size_t indexAt = 0;
  bool generic = false;
};

// One ld.local / st.local of a variable, and the bytes it may touch.
struct Access {
  size_t stmt = 0;
  int64_t offset = 0; // from the variable's start
  std::string index;  // dynamic part, or empty
  int64_t lo = 0, hi = 0;
};

class Promotion {
public:
  explicit Promotion(const Kernel &k) : k_(k), df_(k) {}

  // The kernel with its arrays promoted; nullopt where none is (the
  // kernel stays as it is, uncopied).
  std::optional<Kernel> run() {
    std::map<std::string, std::vector<Access>> accesses;
    std::set<std::string> rejected;
    for (const Variable &v : k_.variables)
      if (isLocalVariable(v.name))
        accesses[v.name];
    if (accesses.empty())
      return std::nullopt;
    for (size_t i = 0; i < k_.body.size(); ++i) {
      const Stmt &s = k_.body[i];
      checkUses(i, rejected);
      if (s.kind == Stmt::Kind::Atomic && s.space == Space::Local)
        return std::nullopt; // (through a register never recognised as an address: checkUses rejects those it knows)
      if (s.kind != Stmt::Kind::Load && s.kind != Stmt::Kind::Store)
        continue;
      // A generic access through a local address is one (the others reach
      // other memory: a local address that could reach them is rejected).
      const bool generic = s.space == Space::Generic && !s.baseIsSymbol && addressIn(s.extra().base) &&
                           addressIn(s.extra().base)->generic;
      if (s.space != Space::Local && !generic)
        continue;
      std::optional<LocalAddress> a;
      if (s.baseIsSymbol) {
        if (isLocalVariable(s.extra().base))
          a = LocalAddress{s.extra().base};
      } else {
        a = addressIn(s.extra().base);
      }
      if (!a || a->generic != generic)
        return std::nullopt; // a local access the analysis cannot place: any variable may be its target
      std::optional<Access> acc = access(i, *a);
      if (acc)
        accesses[a->variable].push_back(*acc);
      else
        rejected.insert(a->variable);
    }

    Kernel out = k_;
    unsigned promotedDwords = 0;
    for (auto &[name, list] : accesses) {
      if (rejected.count(name))
        continue;
      // Parts: the unions of overlapping access ranges.
      std::sort(list.begin(), list.end(), [](const Access &a, const Access &b) { return a.lo < b.lo; });
      bool whole = true;
      for (size_t first = 0; first < list.size();) {
        int64_t lo = list[first].lo, hi = list[first].hi;
        bool indexed = !list[first].index.empty();
        size_t last = first + 1;
        for (; last < list.size() && list[last].lo < hi; ++last) {
          hi = std::max(hi, list[last].hi);
          indexed |= !list[last].index.empty();
        }
        const unsigned dwords = unsigned((hi - lo) / 4);
        if ((indexed && dwords > kMaxIndexedArrayDwords) || promotedDwords + dwords > kMaxPromotedDwords) {
          whole = false;
          first = last;
          continue;
        }
        promotedDwords += dwords;
        std::vector<std::string> elements;
        for (unsigned d = 0; d < dwords; ++d) {
          // (PTX names may start with underscores, or be only underscores and digits.)
          const size_t letters = name.find_first_not_of('_');
          std::string reg = "%__" + (letters == std::string::npos ? name : name.substr(letters)) + "_" +
                            std::to_string(lo / 4 + d);
          out.registers.set(reg, ptx::RegisterType{ptx::TypeClass::B, 32});
          elements.push_back(std::move(reg));
        }
        const std::string what = "bytes " + std::to_string(lo) + ".." + std::to_string(hi - 1) + " of " + name +
                                 " kept in " + std::to_string(dwords) + " registers (" + elements.front() +
                                 (dwords > 1 ? " .. " + elements.back() : "") + ")";
        for (size_t j = first; j < last; ++j) {
          Stmt &s = out.body[list[j].stmt];
          const bool load = s.kind == Stmt::Kind::Load;
          s.kind = load ? Stmt::Kind::ArrayLoad : Stmt::Kind::ArrayStore;
          s.extraToWrite().elements = elements;
          s.extraToWrite().base = list[j].index;
          s.baseIsSymbol = false;
          s.offset = list[j].offset - lo;
          s.note = what + (s.extra().base.empty() ? ": a move" : ": the element the index picks, by compares and v_cndmask");
        }
        first = last;
      }
      if (whole)
        dropAddresses(out, name);
    }
    narrowIndices(out);
    return out;
  }

private:
  const Kernel &k_;
  Dataflow df_;
  std::map<std::string, std::optional<LocalAddress>> addresses_;
  std::map<std::string, Bounds> bounds_;
  std::set<std::string> visiting_;

  bool isLocalVariable(const std::string &name) const {
    const Variable *v = k_.variable(name);
    return v && v->space == Space::Local && !v->dynamic;
  }

  std::optional<size_t> singleDef(const std::string &r) const {
    if (df_.writes(r) != 1)
      return std::nullopt;
    return df_.def(r);
  }

  // The local address register `r` always holds, if it is one: written
  // once, unguarded, from a local variable's address by moves and adds.
  std::optional<LocalAddress> addressIn(const std::string &r) {
    if (auto it = addresses_.find(r); it != addresses_.end())
      return it->second;
    if (!visiting_.insert(r).second)
      return std::nullopt; // its own source, around a loop
    std::optional<LocalAddress> out;
    const std::optional<size_t> d = singleDef(r);
    const Stmt *s = d ? &k_.body[*d] : nullptr;
    if (s && s->guard.empty() && s->kind == Stmt::Kind::AddressOf && isLocalVariable(s->extra().symbol)) {
      out = LocalAddress{s->extra().symbol};
    } else if (s && s->guard.empty() && s->kind == Stmt::Kind::Cvta && s->toGeneric && s->space == Space::Local) {
      // cvta.local of the variable or of a local address: the same place, generic
      if (!s->extra().symbol.empty()) {
        if (isLocalVariable(s->extra().symbol))
          out = LocalAddress{s->extra().symbol};
      } else if (s->extra().srcs.size() == 1 && s->extra().srcs[0].isReg()) {
        out = addressIn(s->extra().srcs[0].reg);
        if (out && out->generic)
          out.reset();
      }
      if (out)
        out->generic = true;
    } else if (s && s->guard.empty() && s->kind == Stmt::Kind::Compute && s->inst.dsts.size() == 1) {
      const ptx::Form &f = s->inst.form;
      const std::vector<ptx::Operand> &src = s->inst.srcs;
      if (f.opcode == ptx::Opcode::Mov && src.size() == 1 && src[0].isReg()) {
        out = addressIn(src[0].reg);
      } else if ((f.opcode == ptx::Opcode::Add || f.opcode == ptx::Opcode::Sub) && src.size() == 2 && !f.carryIn &&
                 !f.carryOut) {
        const bool add = f.opcode == ptx::Opcode::Add;
        std::optional<LocalAddress> a = src[0].isReg() ? addressIn(src[0].reg) : std::nullopt;
        std::optional<LocalAddress> b = add && !a && src[1].isReg() ? addressIn(src[1].reg) : std::nullopt;
        if (a || b) {
          LocalAddress p = a ? *a : *b;
          const ptx::Operand &other = a ? src[1] : src[0];
          bool ok = true;
          if (other.isImm()) {
            const int64_t v = f.width >= 64 ? int64_t(other.imm) : int64_t(int32_t(uint32_t(other.imm)));
            p.offset += add ? v : -v;
          } else if (add && p.index.empty() && !addressIn(other.reg)) {
            p.index = other.reg;
            p.indexAt = *d;
          } else {
            ok = false;
          }
          // The index is read where it was added: every later link of the
          // chain follows that add in its block.
          if (ok && !p.index.empty() && p.indexAt != *d && (df_.block[*d] != df_.block[p.indexAt] || *d < p.indexAt))
            ok = false;
          if (ok)
            out = p;
        }
      }
    }
    visiting_.erase(r);
    addresses_[r] = out;
    return out;
  }

  // Every read of a local address in statement i is one the promotion can
  // account for; a variable whose address goes anywhere else stays in
  // memory. So does one whose address lands in a register written twice.
  void checkUses(size_t i, std::set<std::string> &rejected) {
    const Stmt &s = k_.body[i];
    if (s.kind == Stmt::Kind::AddressOf && isLocalVariable(s.extra().symbol) && !addressIn(s.extra().dst))
      rejected.insert(s.extra().symbol);
    if (s.kind == Stmt::Kind::Cvta && isLocalVariable(s.extra().symbol) && df_.reads(s.extra().dst) && !addressIn(s.extra().dst))
      rejected.insert(s.extra().symbol);
    if (s.kind == Stmt::Kind::Atomic && s.baseIsSymbol && isLocalVariable(s.extra().base))
      rejected.insert(s.extra().base);
    for (const std::string &r : readRegisters(s)) {
      std::optional<LocalAddress> a = addressIn(r);
      if (!a)
        continue;
      bool allowed = false;
      switch (s.kind) {
      case Stmt::Kind::Compute:
        allowed = r != s.guard && s.inst.dsts.size() == 1 && s.inst.dsts[0].isReg() &&
                  addressIn(s.inst.dsts[0].reg) && df_.def(s.inst.dsts[0].reg) == i;
        break;
      case Stmt::Kind::Load:
      case Stmt::Kind::Store:
        allowed = (s.space == (a->generic ? Space::Generic : Space::Local)) && !s.baseIsSymbol && s.extra().base == r &&
                  r != s.guard &&
                  std::none_of(s.extra().values.begin(), s.extra().values.end(),
                               [&](const ptx::Operand &o) { return o.isReg() && o.reg == r; });
        break;
      case Stmt::Kind::Cvta: allowed = s.toGeneric && (!df_.reads(s.extra().dst) || addressIn(s.extra().dst)); break;
      default: break;
      }
      if (!allowed)
        rejected.insert(a->variable);
    }
  }

  Bounds boundsOf(const ptx::Operand &o) {
    if (o.isImm())
      return {o.imm, o.imm ? unsigned(std::countr_zero(o.imm)) : 64u};
    if (!o.isReg())
      return {};
    return boundsOf(o.reg);
  }

  // How large register r's value can be, and how aligned, from the
  // statement that alone writes it (PTX ISA 9.7.1, 9.7.8, 9.7.9.21).
  Bounds boundsOf(const std::string &r) {
    if (auto it = bounds_.find(r); it != bounds_.end())
      return it->second;
    const unsigned w = k_.registerWidth(r);
    Bounds out{allOnes(w), 0};
    bounds_[r] = out; // (a value computed from itself: nothing known)
    const std::optional<size_t> d = singleDef(r);
    const Stmt *s = d ? &k_.body[*d] : nullptr;
    if (w == 0 || w > 64 || !s || !s->guard.empty() || s->kind != Stmt::Kind::Compute || s->inst.dsts.size() != 1)
      return out;
    const ptx::Form &f = s->inst.form;
    const std::vector<ptx::Operand> &src = s->inst.srcs;
    auto pow2 = [](const ptx::Operand &o) -> std::optional<unsigned> {
      if (o.isImm() && o.imm && std::has_single_bit(o.imm))
        return unsigned(std::countr_zero(o.imm));
      return std::nullopt;
    };
    auto shiftedLeft = [&](const Bounds &a, unsigned k) {
      Bounds b{allOnes(w), std::min(64u, a.zeros + k)};
      if (k < 64 && a.max <= (allOnes(w) >> k))
        b.max = a.max << k;
      return b;
    };
    switch (f.opcode) {
    case ptx::Opcode::Mov:
      if (src.size() == 1)
        out = boundsOf(src[0]);
      break;
    case ptx::Opcode::And:
      if (src.size() == 2) {
        const Bounds a = boundsOf(src[0]), b = boundsOf(src[1]);
        out = {std::min(a.max, b.max), std::max(a.zeros, b.zeros)};
      }
      break;
    case ptx::Opcode::Or:
    case ptx::Opcode::Xor:
      if (src.size() == 2) {
        const Bounds a = boundsOf(src[0]), b = boundsOf(src[1]);
        out = {allOnes(unsigned(std::bit_width(std::max(a.max, b.max)))), std::min(a.zeros, b.zeros)};
      }
      break;
    case ptx::Opcode::Add:
      if (src.size() == 2 && !f.carryIn && !f.carryOut) {
        const Bounds a = boundsOf(src[0]), b = boundsOf(src[1]);
        out.zeros = std::min(a.zeros, b.zeros);
        if (a.max <= allOnes(w) && b.max <= allOnes(w) - a.max)
          out.max = a.max + b.max;
      }
      break;
    case ptx::Opcode::Shl:
      if (src.size() == 2 && src[1].isImm() && src[1].imm < w)
        out = shiftedLeft(boundsOf(src[0]), unsigned(src[1].imm));
      break;
    case ptx::Opcode::Shr:
      if (src.size() == 2 && src[1].isImm() && src[1].imm < w && f.type != ptx::TypeClass::S) {
        const Bounds a = boundsOf(src[0]);
        const unsigned k = unsigned(src[1].imm);
        out = {std::min(a.max, allOnes(w)) >> k, a.zeros > k ? a.zeros - k : 0};
      }
      break;
    case ptx::Opcode::MulLo:
    case ptx::Opcode::MulWide:
      // (A signed product by 2^k has k low zero bits too; its largest
      // value is unknown: nvcc's `mul.wide.s32 %rd, %r, 4` of an int index.)
      if (src.size() == 2) {
        if (std::optional<unsigned> k = pow2(src[1]))
          out = shiftedLeft(boundsOf(src[0]), *k);
        else if (std::optional<unsigned> k0 = pow2(src[0]))
          out = shiftedLeft(boundsOf(src[1]), *k0);
        if (f.type == ptx::TypeClass::S)
          out.max = allOnes(w);
      }
      break;
    case ptx::Opcode::Cvt:
      // (.sat clamps, and an 8-bit result is extended by its own type: neither
      // is an extension or truncation of the source)
      if (src.size() == 1 && f.fromType != ptx::TypeClass::Pred && !f.saturate && f.width >= 16) {
        const Bounds a = boundsOf(src[0]);
        const uint64_t from = std::min(a.max, allOnes(f.fromWidth));
        if (f.fromWidth >= w) // truncation
          out = {std::min(from, allOnes(w)), std::min(a.zeros, w)};
        else if (f.fromType != ptx::TypeClass::S || from <= allOnes(f.fromWidth - 1)) // zero extension
          out = {from, a.zeros};
      }
      break;
    case ptx::Opcode::Rem:
      if (src.size() == 2 && f.type == ptx::TypeClass::U && src[1].isImm() && src[1].imm)
        out = {std::min(boundsOf(src[0]).max, src[1].imm - 1), 0};
      break;
    case ptx::Opcode::Bfe:
      if (src.size() == 3 && f.type == ptx::TypeClass::U && src[2].isImm() && (src[2].imm & 0xff) < w)
        out = {allOnes(unsigned(src[2].imm & 0xff)), 0};
      break;
    default: break;
    }
    out.max = std::min(out.max, allOnes(w));
    bounds_[r] = out;
    return out;
  }

  // Statement i's access through `a`, with the bytes it may touch: 32- or
  // 64-bit values at a dword-aligned offset; a dynamic one reads or writes
  // one 32-bit value at an index known to stay inside the variable.
  std::optional<Access> access(size_t i, const LocalAddress &a) {
    const Stmt &s = k_.body[i];
    const Variable &v = *k_.variable(a.variable);
    if (s.elemBits != 32 && s.elemBits != 64)
      return std::nullopt;
    for (const ptx::Operand &o : s.extra().values)
      if (!(o.isImm() || (o.isReg() && k_.registerWidth(o.reg) == s.elemBits)))
        return std::nullopt;
    Access acc{i, a.offset + s.offset, a.index};
    if (acc.offset < 0 || acc.offset % 4)
      return std::nullopt;
    acc.lo = acc.offset;
    if (a.index.empty()) {
      acc.hi = acc.offset + int64_t(s.extra().values.size() * (s.elemBits / 8));
    } else {
      // The address register and the add that brought the index in both
      // run before the access in its block (so both saw this pass's index).
      const std::optional<size_t> based = s.baseIsSymbol ? std::nullopt : singleDef(s.extra().base);
      if (s.extra().values.size() != 1 || s.elemBits != 32 || df_.block[a.indexAt] != df_.block[i] || a.indexAt >= i ||
          !based || df_.block[*based] != df_.block[i] || *based >= i)
        return std::nullopt;
      ptx::Operand index;
      index.reg = a.index;
      if (!unchangedBetween(k_, index, a.indexAt, i))
        return std::nullopt;
      const Bounds b = boundsOf(a.index);
      if (b.zeros < 2)
        return std::nullopt;
      if (b.max < v.size) {
        acc.hi = acc.offset + int64_t(b.max & ~uint64_t(3)) + 4;
      } else { // (unbounded: anywhere in the variable; see the header)
        acc.lo = 0;
        acc.hi = int64_t(v.size);
      }
    }
    if (acc.hi > int64_t(v.size))
      return std::nullopt;
    return acc;
  }

  // nvcc computes a byte index in 64 bits: `mul.wide.u32` by 4, or
  // `cvt.u64.u32` then `and.b64` with a mask. The lowering compares only
  // the index's low half (all an index inside the array has), so where
  // only promoted accesses read it, its statement computes that half in 32
  // bits instead: a shift (or mul.lo) of the source, or the and of the
  // cvt's source, whose zero extension goes where nothing else reads it.
  void narrowIndices(Kernel &out) {
    std::map<std::string, unsigned> reads;
    std::map<std::string, std::vector<size_t>> users;
    for (size_t i = 0; i < out.body.size(); ++i) {
      const Stmt &s = out.body[i];
      for (const std::string &r : readRegisters(s))
        ++reads[r];
      if ((s.kind == Stmt::Kind::ArrayLoad || s.kind == Stmt::Kind::ArrayStore) && !s.extra().base.empty())
        users[s.extra().base].push_back(i);
    }
    for (const auto &[index, at] : users) {
      const std::optional<size_t> d = singleDef(index);
      if (!d || k_.registerWidth(index) != 64 || reads[index] != at.size())
        continue;
      const Stmt &def = k_.body[*d];
      if (def.kind != Stmt::Kind::Compute || !def.guard.empty() || def.inst.srcs.size() != 2)
        continue;
      const bool immFirst = def.inst.srcs[0].isImm();
      const ptx::Operand &wide = def.inst.srcs[immFirst ? 1 : 0], &imm = def.inst.srcs[immFirst ? 0 : 1];
      if (!wide.isReg() || !imm.isImm() || imm.imm > 0xffffffffu)
        continue;
      ptx::Instruction narrowed;
      std::optional<size_t> extension;
      if (def.inst.form.opcode == ptx::Opcode::MulWide) { // (the low half is the same for either signedness)
        if (std::has_single_bit(imm.imm)) {
          ptx::Operand k;
          k.kind = ptx::Operand::Kind::Immediate;
          k.imm = unsigned(std::countr_zero(imm.imm));
          narrowed.form = ptx::Form{ptx::Opcode::Shl, ptx::TypeClass::B, 32};
          narrowed.srcs = {wide, k};
        } else {
          narrowed.form = ptx::Form{ptx::Opcode::MulLo, ptx::TypeClass::U, 32};
          narrowed.srcs = {wide, imm};
        }
      } else if (def.inst.form.opcode == ptx::Opcode::And) {
        const std::optional<size_t> c = singleDef(wide.reg);
        if (!c || *c >= *d || df_.block[*c] != df_.block[*d])
          continue;
        const Stmt &cvt = k_.body[*c];
        if (cvt.kind != Stmt::Kind::Compute || !cvt.guard.empty() || cvt.inst.form.opcode != ptx::Opcode::Cvt ||
            cvt.inst.form.fromWidth != 32 || cvt.inst.form.type != ptx::TypeClass::U || !cvt.inst.srcs[0].isReg() ||
            !unchangedBetween(k_, cvt.inst.srcs[0], *c, *d))
          continue;
        narrowed.form = ptx::Form{ptx::Opcode::And, ptx::TypeClass::B, 32};
        narrowed.srcs = {cvt.inst.srcs[0], imm};
        if (reads[wide.reg] == 1)
          extension = *c;
      } else {
        continue;
      }
      const std::string narrow = "%__" + index.substr(1) + "_lo";
      out.registers.set(narrow, ptx::RegisterType{ptx::TypeClass::B, 32});
      ptx::Instruction &in = out.body[*d].inst;
      in.form = narrowed.form;
      in.srcs = narrowed.srcs;
      in.dsts[0].reg = narrow;
      out.body[*d].note = "the low half of an index into an array kept in registers, in 32 bits";
      if (extension)
        foldAway(out.body[*extension], "the zero extension of an index whose low half alone is read");
      for (size_t i : at)
        out.body[i].extraToWrite().base = narrow;
    }
  }

  // The address arithmetic of a variable now wholly in registers, and the
  // variable itself: nothing reads them any more.
  void dropAddresses(Kernel &out, const std::string &name) {
    for (size_t i = 0; i < out.body.size(); ++i) {
      const Stmt &s = k_.body[i];
      const std::vector<std::string> written = writtenRegisters(s);
      const bool address = written.size() == 1 && s.kind != Stmt::Kind::Load && addressIn(written[0]) &&
                           addressIn(written[0])->variable == name;
      bool generic = false;
      if (s.kind == Stmt::Kind::Cvta && s.toGeneric) {
        const std::optional<LocalAddress> src =
            s.extra().symbol.empty() ? (s.extra().srcs.size() == 1 && s.extra().srcs[0].isReg() ? addressIn(s.extra().srcs[0].reg) : std::nullopt)
                             : std::optional<LocalAddress>(LocalAddress{s.extra().symbol});
        generic = src && src->variable == name;
      }
      if (address || generic)
        foldAway(out.body[i], "the address of " + name + ", whose bytes are kept in registers");
    }
    out.variables.erase(std::remove_if(out.variables.begin(), out.variables.end(),
                                       [&](const Variable &v) { return v.name == name; }),
                        out.variables.end());
  }
};

} // namespace

Kernel promoteLocalArrays(Kernel k) {
  if (std::none_of(k.variables.begin(), k.variables.end(),
                   [](const Variable &v) { return v.space == Space::Local; })) // (no dataflow to build)
    return k;
  if (std::optional<Kernel> promoted = Promotion(k).run())
    return std::move(*promoted);
  return k;
}

} // namespace p2a::kernel
