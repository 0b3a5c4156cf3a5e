#include "kernel/transforms/xor_linear_maps.hpp"

#include "kernel/analysis/dataflow.hpp"
#include "kernel/transforms/statement_building.hpp"

#include <algorithm>
#include <array>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>

namespace p2a::kernel {

namespace {

// A linear map of a 32-bit register x: column j is its value for x = 1 << j.
using Columns = std::array<uint32_t, 32>;

Columns identityColumns() {
  Columns c{};
  for (unsigned j = 0; j < 32; ++j)
    c[j] = 1u << j;
  return c;
}

bool allBits0(const Columns &c) {
  return std::all_of(c.begin(), c.end(), [](uint32_t v) { return v <= 1; });
}

// The columns of `in`'s result, given those of its register sources (regs[i]
// for srcs[i]; null for an immediate), where `in` is linear over GF(2) in
// them (PTX ISA 9.7.8 logic and shift, 9.7.1.14 bfe, 9.7.1.9 neg, 9.7.1.3
// mul): a linear operation applied to the image of each one-bit input.
std::optional<Columns> linearImage(const ptx::Instruction &in, llvm::ArrayRef<const Columns *> regs) {
  auto reg = [&](size_t i) { return i < regs.size() ? regs[i] : nullptr; };
  auto imm = [&](size_t i) -> std::optional<uint32_t> {
    if (i < in.srcs.size() && in.srcs[i].isImm())
      return static_cast<uint32_t>(in.srcs[i].imm);
    return std::nullopt;
  };
  auto each = [](const Columns &a, auto f) {
    Columns r{};
    for (unsigned j = 0; j < 32; ++j)
      r[j] = f(a[j]);
    return r;
  };
  const ptx::Form &f = in.form;
  switch (f.opcode) {
  case ptx::Opcode::Mov:
    if (reg(0))
      return *reg(0);
    if (imm(0) == 0u)
      return Columns{}; // (the zero map)
    return std::nullopt;
  case ptx::Opcode::Xor:
    if (reg(0) && reg(1)) {
      Columns r{};
      for (unsigned j = 0; j < 32; ++j)
        r[j] = (*reg(0))[j] ^ (*reg(1))[j];
      return r;
    }
    return std::nullopt;
  case ptx::Opcode::Lop3: // a ^ b ^ c (LUT 0x96 = 0xF0 ^ 0xCC ^ 0xAA)
    if (f.boolop == ptx::BoolOp::None && reg(0) && reg(1) && reg(2) && imm(3) && (*imm(3) & 0xFF) == 0x96) {
      Columns r{};
      for (unsigned j = 0; j < 32; ++j)
        r[j] = (*reg(0))[j] ^ (*reg(1))[j] ^ (*reg(2))[j];
      return r;
    }
    return std::nullopt;
  case ptx::Opcode::And:
    for (size_t side = 0; side < 2; ++side)
      if (reg(side) && imm(1 - side)) {
        const uint32_t mask = *imm(1 - side);
        return each(*reg(side), [&](uint32_t v) { return v & mask; });
      }
    return std::nullopt;
  case ptx::Opcode::Shl: // (shift amounts past 31 give 0, PTX ISA 9.7.8.7)
    if (reg(0) && imm(1)) {
      const uint32_t k = *imm(1);
      return each(*reg(0), [&](uint32_t v) { return k >= 32 ? 0u : v << k; });
    }
    return std::nullopt;
  case ptx::Opcode::Shr: // .s32 replicates the sign bit (9.7.8.8)
    if (reg(0) && imm(1)) {
      const uint32_t k = *imm(1);
      if (f.type == ptx::TypeClass::S)
        return each(*reg(0), [&](uint32_t v) {
          return static_cast<uint32_t>(static_cast<int32_t>(v) >> std::min(k, 31u));
        });
      return each(*reg(0), [&](uint32_t v) { return k >= 32 ? 0u : v >> k; });
    }
    return std::nullopt;
  case ptx::Opcode::Bfe: // bits pos .. pos+len-1, zero- or sign-extended (9.7.1.14)
    if (reg(0) && imm(1) && imm(2)) {
      const uint32_t pos = *imm(1) & 0xFF, len = *imm(2) & 0xFF;
      if (len == 0 || pos + len > 32)
        return std::nullopt;
      const bool sign = f.type == ptx::TypeClass::S;
      return each(*reg(0), [&](uint32_t v) {
        uint32_t field = len == 32 ? v : (v >> pos) & ((1u << len) - 1);
        if (sign && len < 32 && ((field >> (len - 1)) & 1))
          field |= ~0u << len;
        return field;
      });
    }
    return std::nullopt;
  case ptx::Opcode::Neg: // of a 0-or-1 value: all ones or zero
    if (reg(0) && allBits0(*reg(0)))
      return each(*reg(0), [](uint32_t v) { return 0u - v; });
    return std::nullopt;
  case ptx::Opcode::MulLo: // a 0-or-1 value times a constant: the constant or zero
    for (size_t side = 0; side < 2; ++side)
      if (reg(side) && imm(1 - side) && allBits0(*reg(side))) {
        const uint32_t c = *imm(1 - side);
        return each(*reg(side), [&](uint32_t v) { return v * c; });
      }
    return std::nullopt;
  default: return std::nullopt;
  }
}

// The value a linear statement leaves in its register: a map of x (one
// version of it) computed by linear statements of the block.
struct LinearValue {
  std::string base;         // x
  unsigned baseId = 0;      // x's register id (Dataflow::id)
  unsigned baseVersion = 0; // which write of x (counted over the body: the same write, the same count)
  Columns columns{};
};

// One shift of x (or none) as the part of a map its columns share.
struct Shift {
  enum class Kind { None, Right, Left } kind = Kind::None;
  unsigned amount = 0; // Right 0: x itself
  uint32_t of(uint32_t v) const {
    return kind == Kind::None ? 0u : kind == Kind::Right ? v >> amount : v << amount;
  }
};

// The statements computing `columns` from `x`: the shift that leaves the
// fewest columns over, then each remaining input bit j broadcast
// (bfe.s32 x, j, 1) and masked, all xor-ed together. The last one writes `dst`.
// `described` says what it is, for the statement's note.
std::vector<ptx::Instruction> shortestForm(const Columns &columns, const ptx::Operand &x, const ptx::Operand &dst,
                                           const ptx::Instruction &at, const std::function<std::string()> &fresh,
                                           std::string &described) {
  auto instructionsFor = [&](const Shift &s) {
    unsigned count = s.kind != Shift::Kind::None && s.amount != 0 ? 1 : 0, terms = s.kind != Shift::Kind::None;
    for (unsigned j = 0; j < 32; ++j)
      if (const uint32_t rest = columns[j] ^ s.of(1u << j); rest != 0) {
        count += rest == ~0u ? 1 : 2;
        ++terms;
      }
    return count + (terms > 1 ? terms - 1 : 0);
  };
  Shift best;
  unsigned bestCount = instructionsFor(best);
  for (Shift::Kind kind : {Shift::Kind::Right, Shift::Kind::Left})
    for (unsigned amount = kind == Shift::Kind::Right ? 0 : 1; amount < 32; ++amount)
      if (const Shift s{kind, amount}; instructionsFor(s) < bestCount) {
        best = s;
        bestCount = instructionsFor(s);
      }
  std::vector<ptx::Instruction> out;
  auto emit = [&](ptx::Opcode op, ptx::TypeClass type, std::vector<ptx::Operand> srcs) {
    out.push_back(replacing(at, ptx::Form{op, type, 32}, {registerOperand(fresh())}, std::move(srcs)));
    return out.back().dsts[0];
  };
  std::vector<ptx::Operand> terms;
  if (best.kind != Shift::Kind::None)
    terms.push_back(best.amount == 0 ? x
                                     : emit(best.kind == Shift::Kind::Right ? ptx::Opcode::Shr : ptx::Opcode::Shl,
                                            ptx::TypeClass::B, {x, immediate(best.amount)}));
  for (unsigned j = 0; j < 32; ++j)
    if (const uint32_t rest = columns[j] ^ best.of(1u << j); rest != 0) {
      const ptx::Operand bit = emit(ptx::Opcode::Bfe, ptx::TypeClass::S, {x, immediate(j), immediate(1)});
      terms.push_back(rest == ~0u ? bit : emit(ptx::Opcode::And, ptx::TypeClass::B, {bit, immediate(rest)}));
    }
  described = best.kind == Shift::Kind::None ? ""
              : best.amount == 0                ? x.reg.str()
              : x.reg + (best.kind == Shift::Kind::Right ? " >> " : " << ") + std::to_string(best.amount);
  if (const size_t bits = terms.size() - (best.kind != Shift::Kind::None); bits > 0)
    described += (described.empty() ? "" : " xor ") + std::to_string(bits) + " of its bits, each broadcast (bfe.s32) "
                 "and masked, independent of each other";
  if (described.empty())
    described = "0";
  ptx::Operand sum = terms.empty() ? immediate(0) : terms[0];
  for (size_t i = 1; i < terms.size(); ++i)
    sum = emit(ptx::Opcode::Xor, ptx::TypeClass::B, {sum, terms[i]});
  if (out.empty() || !(sum.isReg() && sum.reg == out.back().dsts[0].reg))
    out.push_back(replacing(at, ptx::Form{ptx::Opcode::Mov, ptx::TypeClass::B, 32}, {dst}, {sum}));
  else
    out.back().dsts[0] = dst;
  return out;
}

// The columns the statements compute from x, for the check before a rewrite.
std::optional<Columns> evaluate(const std::vector<ptx::Instruction> &code, const std::string &x) {
  std::map<std::string, Columns> known{{x, identityColumns()}};
  std::optional<Columns> last;
  for (const ptx::Instruction &in : code) {
    llvm::SmallVector<const Columns *, 4> regs;
    for (const ptx::Operand &o : in.srcs) {
      const auto it = o.isReg() ? known.find(o.reg) : known.end();
      if (o.isReg() && it == known.end())
        return std::nullopt;
      regs.push_back(o.isReg() ? &it->second : nullptr);
    }
    last = linearImage(in, regs);
    if (!last)
      return std::nullopt;
    known[in.dsts[0].reg] = *last;
  }
  return last;
}

} // namespace

Kernel collapseXorLinearMaps(Kernel k, const targets::TargetInfo &t, const select::RuleCostFn &cost) {
  // (Rewritten in place: a region's statements are read before they are
  // rewritten, and no later region reads them.)
  const size_t n = k.body.size();
  const Dataflow df(k);
  unsigned freshCount = 0;
  auto fresh = [&] { // (declared once the rewrite is made)
    std::string name;
    do
      name = "%__xl" + std::to_string(freshCount++);
    while (k.registers.count(name));
    return name;
  };
  // Per statement that computes a linear map of some x: the map, and the
  // statements its register sources came from (-1: x itself or an immediate).
  std::vector<std::optional<LinearValue>> valueOf(n);
  std::vector<std::array<long, 3>> sourcesOf(n, {-1, -1, -1});
  std::vector<bool> consumed(n, false);
  // Per register id, in the block being walked: the statement whose linear
  // value its latest write holds (-1: none), and how often it was written
  // (which write of x a base is; compared within a block only, so never
  // reset). `held` lists the ids `latest` holds a statement for.
  std::vector<long> latest(df.registerCount(), -1);
  std::vector<unsigned> version(df.registerCount(), 0);
  std::vector<unsigned> held;
  size_t blockBegin = 0;
  while (blockBegin < n) {
    size_t blockEnd = blockBegin;
    while (blockEnd < n && df.block[blockEnd] == df.block[blockBegin])
      ++blockEnd;
    // Forward: the linear value of each register's latest write in the
    // block, from a base x. A value read other than by the linear
    // statements computed from it (a store, an add, another block, a
    // second write) is a boundary: later statements take it as their x.
    // Boundaries only grow (a statement mixing two bases stops being
    // linear and may make its sources boundaries), so this settles.
    std::vector<bool> boundary(blockEnd - blockBegin, false);
    for (bool settled = false; !settled;) {
      for (unsigned r : held)
        latest[r] = -1;
      held.clear();
      for (size_t i = blockBegin; i < blockEnd; ++i) {
        const Stmt &s = k.body[i];
        valueOf[i].reset();
        sourcesOf[i] = {-1, -1, -1};
        if (isPlain(s, s.inst.form.opcode, 32) && writesOneRegister(s) && s.inst.srcs.size() <= 4) {
          std::optional<std::pair<unsigned, unsigned>> base; // (x's id, which write of it)
          const std::string *baseName = nullptr;
          bool sameBase = true;
          llvm::SmallVector<Columns, 4> identities; // (x itself, where a source is)
          identities.reserve(s.inst.srcs.size());   // (no growth: `regs` points into it)
          llvm::SmallVector<const Columns *, 4> regs;
          for (size_t o = 0; o < s.inst.srcs.size(); ++o) {
            const ptx::Operand &src = s.inst.srcs[o];
            if (!src.isReg()) {
              regs.push_back(nullptr);
              continue;
            }
            const unsigned r = *df.id(src.reg);
            std::pair<unsigned, unsigned> b{r, version[r]};
            const std::string *name = &src.reg.str();
            if (const long l = latest[r]; l >= 0) {
              b = {valueOf[size_t(l)]->baseId, valueOf[size_t(l)]->baseVersion};
              name = &valueOf[size_t(l)]->base;
              regs.push_back(&valueOf[size_t(l)]->columns);
              if (o < 3)
                sourcesOf[i][o] = l;
            } else {
              identities.push_back(identityColumns());
              regs.push_back(&identities.back());
            }
            sameBase = sameBase && (!base || *base == b);
            base = b;
            baseName = name;
          }
          if (base && sameBase && (s.inst.srcs.size() < 4 || s.inst.form.opcode == ptx::Opcode::Lop3))
            if (std::optional<Columns> c = linearImage(s.inst, regs))
              valueOf[i] = LinearValue{*baseName, base->first, base->second, *c};
        }
        for (unsigned r : df.writtenIds(i)) {
          ++version[r];
          latest[r] = -1;
        }
        if (valueOf[i] && !boundary[i - blockBegin]) {
          const unsigned d = *df.id(s.inst.dsts[0].reg);
          latest[d] = long(i);
          held.push_back(d);
        }
      }
      // Per statement of the block: reads of its result as a linear source.
      std::vector<unsigned> linearReads(blockEnd - blockBegin, 0);
      for (size_t i = blockBegin; i < blockEnd; ++i)
        if (valueOf[i])
          for (long from : sourcesOf[i])
            if (from >= 0)
              ++linearReads[size_t(from) - blockBegin];
      settled = true;
      for (size_t i = blockBegin; i < blockEnd; ++i) {
        if (!valueOf[i] || boundary[i - blockBegin])
          continue;
        const std::string &r = k.body[i].inst.dsts[0].reg;
        if (df.writes(r) != 1 || (df.reads(r) != 0 && df.reads(r) != linearReads[i - blockBegin])) {
          boundary[i - blockBegin] = true;
          settled = false;
        }
      }
    }
    // Backward: each linear result not absorbed by a later region is a root;
    // its region is every statement it was computed from since x.
    for (size_t root = blockEnd; root-- > blockBegin;) {
      if (!valueOf[root] || consumed[root])
        continue;
      const LinearValue &v = *valueOf[root];
      std::vector<size_t> region{root}, work{root};
      std::set<size_t> inRegion{root};
      std::map<std::string, unsigned> readsInside;
      bool ok = true;
      while (ok && !work.empty()) {
        const size_t s = work.back();
        work.pop_back();
        for (const ptx::Operand &o : k.body[s].inst.srcs)
          if (o.isReg())
            ++readsInside[o.reg];
        for (long from : sourcesOf[s]) {
          if (from < 0 || !inRegion.insert(size_t(from)).second)
            continue;
          if (consumed[size_t(from)]) { // (rewritten already: its instruction is not the one analysed)
            ok = false;
            break;
          }
          const std::string &r = k.body[size_t(from)].inst.dsts[0].reg;
          ok = ok && df.writes(r) == 1;
          region.push_back(size_t(from));
          work.push_back(size_t(from));
        }
      }
      for (size_t s : region)
        if (ok && s != root) {
          const std::string &r = k.body[s].inst.dsts[0].reg;
          ok = ok && df.reads(r) != 0 && df.reads(r) == readsInside[r];
        }
      if (!ok || region.size() < 2)
        continue;
      std::sort(region.begin(), region.end());
      const ptx::Operand x = registerOperand(v.base);
      if (writtenIn(k, v.base, region.front(), root)) // (x changes between the region's first statement and the root)
        continue;
      std::string described;
      const std::vector<ptx::Instruction> code =
          shortestForm(v.columns, x, k.body[root].inst.dsts[0], k.body[root].inst, fresh, described);
      const std::optional<Columns> check = evaluate(code, v.base);
      if (code.size() > region.size() || !check || *check != v.columns)
        continue;
      double before = 0, after = 0;
      for (size_t s : region)
        before += bestCost(k.body[s].inst, t, cost);
      for (const ptx::Instruction &in : code)
        after += bestCost(in, t, cost);
      if (after >= before)
        continue;
      for (size_t i = 0; i + 1 < code.size(); ++i)
        k.registers.set(code[i].dsts[0].reg, ptx::RegisterType{ptx::TypeClass::B, 32});
      std::string lines;
      for (size_t s : region)
        lines += (lines.empty() ? "" : ", ") + std::to_string(k.body[s].loc.line);
      const std::string rootLine = std::to_string(k.body[root].loc.line);
      for (size_t i = 0; i < region.size(); ++i) {
        Stmt &s = k.body[region[i]];
        consumed[region[i]] = true;
        const bool last = region[i] == root;
        if (!last && i + 1 >= code.size()) {
          foldAway(s, "folded into the linear map of " + v.base + " at line " + rootLine);
          continue;
        }
        const ::ptx::ast::SourceLoc loc = s.inst.loc;
        std::string text = std::move(s.inst.text);
        s.inst = last ? code.back() : code[i];
        s.inst.loc = loc;
        s.inst.text = std::move(text);
        const bool copy = code.size() == 1 && code[0].form.opcode == ptx::Opcode::Mov;
        s.note = !last ? "part of the linear map of " + v.base + " at line " + rootLine
                 : copy ? "lines " + lines + " copy " + described + ": one mov"
                        : "lines " + lines + " compute a map of " + v.base + " that is linear over GF(2): " +
                              described + " (" + std::to_string(code.size()) + " PTX instructions for " +
                              std::to_string(region.size()) + ")";
      }
    }
    blockBegin = blockEnd;
  }
  return k;
}

} // namespace p2a::kernel
