// A .local array kept in registers (kernel/transforms/local_array_promotion.hpp),
// one 32-bit register per dword. At a constant offset an access is a
// v_mov per dword. At a dynamic one, each element the index may pick is
// compared with it (v_cmp_eq_u32 into a lane mask) and v_cndmask_b32 takes
// the element (a load) or the value (a store) in the lanes where it
// matches: the lanes of a wave index independently, so no single register
// index would do (LLVM's movrel waterfall loops once per distinct index).
// A later access in the same block with the same index register, unchanged
// since, reuses the masks (a swap's load and store compare once): an
// unguarded statement made them, for every lane the block runs.
#include "lowering/lowering.hpp"

#include <functional>

namespace p2a::klower {

using amd::Op;

// How many statements apart a mask may be reused: each holds an SGPR (a
// pair in wave64) across the statements between.
constexpr size_t kMaskReuseDistance = 16;

void Lowering::lowerArrayAccess(const Stmt &s) {
  mir::LoweredInst &li = begin();
  const bool store = s.kind == Stmt::Kind::ArrayStore;
  auto element = [&](size_t e) { return vregOperand(reg(s.extra().elements[e], 32)); };
  const unsigned parts = s.elemBits == 64 ? 2 : 1;
  if (s.extra().base.empty()) {
    size_t e = size_t(s.offset / 4);
    for (const ptx::Operand &v : s.extra().values)
      for (unsigned p = 0; p < parts; ++p, ++e) {
        const Part part = parts == 1 ? Part::Whole : p ? Part::Hi : Part::Lo;
        if (!store)
          li.insts.push_back({Op::V_MOV_B32, vregOperand(reg(v.reg, s.elemBits), part), {element(e)}});
        else if (v.isReg())
          li.insts.push_back({Op::V_MOV_B32, element(e), {vregOperand(reg(v.reg, s.elemBits), part)}});
        else
          li.insts.push_back({Op::V_MOV_B32, element(e), {mir::immOperand((v.imm >> (32 * p)) & 0xffffffffu)}});
      }
    return;
  }
  // (The lowering of a dynamic index: see the header comment.)
  // The index: a byte offset from the first element minus s.offset; the
  // transform proved it dword-aligned and inside the array.
  const unsigned indexWidth = k_.registers.count(s.extra().base) && k_.registers.at(s.extra().base).width == 64 ? 64 : 32;
  const MOperand index = vregOperand(reg(s.extra().base, indexWidth), indexWidth == 64 ? Part::Lo : Part::Whole);
  // Inline constants (-16..64) fit any encoding; a literal goes in a VGPR
  // (gfx9's VOP3 forms take none).
  auto position = [&](int64_t at) {
    return at >= -16 && at <= 64 ? mir::immOperand(uint64_t(at) & 0xffffffffu) : materialise(li, uint64_t(at), false);
  };
  // The lanes whose index picks position `at`.
  auto matching = [&](int64_t at) {
    const std::pair<std::string, int64_t> key{s.extra().base, at};
    if (auto it = arrayMasks_.find(key); it != arrayMasks_.end()) {
      const size_t from = it->second.first;
      bool valid = from < current_ && current_ - from <= kMaskReuseDistance && blockOf_[from] == blockOf_[current_];
      for (size_t j = from; valid && j < current_; ++j)
        for (const std::string &w : kernel::writtenRegisters(k_.body[j]))
          valid = valid && w != s.extra().base;
      if (valid)
        return vregOperand(it->second.second);
      arrayMasks_.erase(it);
    }
    const unsigned mask = newTemp(mir::RegClass::Mask);
    li.insts.push_back({Op::V_CMP_EQ_U32, vregOperand(mask), {position(at), index}});
    if (s.guard.empty())
      arrayMasks_[key] = {current_, mask};
    return vregOperand(mask);
  };
  // Every element: an index may be negative (nvcc's `mul.wide.s32` of an
  // int, with a constant offset past it: a[j + 2] at j = -1), and the
  // compares work modulo 2^32 (position() keeps the low 32 bits).
  std::vector<size_t> candidates;
  for (size_t e = 0; e < s.extra().elements.size(); ++e)
    candidates.push_back(e);
  // Every compare first: independent of one another, they also hide the
  // latency of the mask each v_cndmask waits for.
  std::vector<MOperand> match(candidates.size());
  for (size_t c = store ? 0 : 1; c < candidates.size(); ++c)
    match[c] = matching(int64_t(4 * candidates[c]) - s.offset);
  const ptx::Operand &dst = s.extra().values[0];
  if (!store && !t_.wave32()) {
    // A chain of selects: the fewest instructions, and a wave64 issues each
    // VALU instruction over four cycles, long enough for the next to use
    // its result.
    const MOperand result =
        dst.reg == s.extra().base ? vregOperand(newTemp(mir::RegClass::V32)) : vregOperand(reg(dst.reg, 32));
    li.insts.push_back({Op::V_MOV_B32, result, {element(candidates.front())}});
    for (size_t c = 1; c < candidates.size(); ++c)
      li.insts.push_back({Op::V_CNDMASK_B32, result, {result, element(candidates[c]), match[c]}});
    if (dst.reg == s.extra().base)
      li.insts.push_back({Op::V_MOV_B32, vregOperand(reg(dst.reg, 32)), {result}});
    return;
  }
  if (!store) {
    // In wave32 a VALU instruction using the previous one's result waits
    // (the stalls s_delay_alu describes on RDNA3). Two chains of selects,
    // one over each half of the candidates, interleaved, so each select's
    // input was written two instructions before; the last select takes the
    // second chain where the index picks one of its elements (an s_or of
    // their masks, on the scalar unit). Two registers for the whole read:
    // the registers of a statement's temporaries do not share, so a
    // balanced tree, which has fewer dependent steps, held eight beside a
    // 16-element table (permute on gfx1100: 30 VGPRs, clang's chain 21).
    std::map<std::pair<size_t, size_t>, MOperand> masks; // candidates [lo, hi) -> lanes picking one of them
    std::function<MOperand(size_t, size_t)> anyOf = [&](size_t lo, size_t hi) {
      if (hi - lo == 1)
        return match[lo];
      auto [it, fresh] = masks.try_emplace({lo, hi});
      if (fresh) {
        const size_t mid = lo + (hi - lo) / 2;
        const MOperand a = anyOf(lo, mid), b = anyOf(mid, hi);
        it->second = vregOperand(newTemp(mir::RegClass::Mask));
        li.insts.push_back({Op::S_OR_MASK, it->second, {a, b}});
      }
      return it->second;
    };
    const MOperand d = vregOperand(reg(dst.reg, 32));
    const size_t n = candidates.size(), half = n / 2;
    if (n == 1) {
      li.insts.push_back({Op::V_MOV_B32, d, {element(candidates[0])}});
      return;
    }
    // A chain over a half: its first element, then a select per element
    // after it. The first chain builds in the destination, unless that is
    // the array itself.
    struct Chain {
      MOperand value;
      size_t next, end; // the next candidate it selects, and its bound
    };
    Chain first{element(candidates[0]), 1, half}, second{element(candidates[half]), half + 1, n};
    const MOperand firstInto = dst.reg == s.extra().base ? vregOperand(newTemp(mir::RegClass::V32)) : d;
    const MOperand secondInto = vregOperand(newTemp(mir::RegClass::V32));
    auto step = [&](Chain &c, const MOperand &into) {
      if (c.next >= c.end)
        return false;
      li.insts.push_back({Op::V_CNDMASK_B32, into, {c.value, element(candidates[c.next]), match[c.next]}});
      c.value = into;
      ++c.next;
      return true;
    };
    for (bool any = true; any;) {
      any = step(first, firstInto);
      any = step(second, secondInto) || any;
    }
    li.insts.push_back({Op::V_CNDMASK_B32, d, {first.value, second.value, anyOf(half, n)}});
    return;
  }
  const ptx::Operand &v = s.extra().values[0];
  const MOperand value = v.isReg() ? vregOperand(reg(v.reg, 32)) : materialise(li, v.imm & 0xffffffffu, false);
  for (size_t c = 0; c < candidates.size(); ++c)
    li.insts.push_back({Op::V_CNDMASK_B32, element(candidates[c]), {element(candidates[c]), value, match[c]}});
}

} // namespace p2a::klower
