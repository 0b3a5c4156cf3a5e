#include "validation/amdgpu_emulator.hpp"

#include "targets/fence_scope.hpp"
#include "targets/wait_states.hpp"
#include "semantics/amd_ops.hpp"
#include "semantics/bitvec.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <deque>
#include <map>
#include <set>

namespace p2a::emu {

using sem::BV;
using targets::Counter;
using targets::InstClass;

namespace {

// SGPR numbers of the special registers (the same numbering the hardware
// uses in scalar operand fields): VCC 106/107, M0 124, EXEC 126/127.
constexpr unsigned kFlatScratch = 102, kVcc = 106, kTtmp0 = 108, kM0 = 124, kExec = 126;
// The read-only 64-bit aperture registers (src_shared_base, src_private_base)
// sit after the SGPR file here, so operands can name them like SGPR pairs.
constexpr unsigned kSrcSharedBase = 128, kSrcPrivateBase = 130, kNumSgprs = 132;

std::string hex(uint64_t v) {
  char b[32];
  std::snprintf(b, sizeof b, "0x%llx", static_cast<unsigned long long>(v));
  return b;
}

// ---- decoded text -> operands ----

struct Operand {
  enum class Kind { V, S, Imm, Off, Null, Other };
  Kind kind = Kind::Other;
  unsigned index = 0, count = 1;
  uint64_t imm = 0;    // sign-extended to 64 bits
  bool inlineConst = false;
  std::string text;
};

struct Parsed {
  std::string mnemonic;
  std::vector<Operand> ops;
  std::vector<std::string> modifiers; // "offset:4", "clamp", "src1_sel:WORD_0", ...
  std::string rest;                   // the raw operand text (s_waitcnt fields)
};

std::optional<uint64_t> parseInt(const std::string &s) {
  if (s.empty())
    return std::nullopt;
  try {
    size_t used = 0;
    const bool neg = s[0] == '-';
    uint64_t v = std::stoull(neg ? s.substr(1) : s, &used, 0);
    if (used + (neg ? 1 : 0) != s.size())
      return std::nullopt;
    return neg ? 0 - v : v;
  } catch (...) {
    return std::nullopt;
  }
}

Operand parseOperand(const std::string &tok, unsigned wave) {
  Operand o;
  o.text = tok;
  auto range = [&](char file) -> bool {
    if (tok.size() < 2 || tok[0] != file)
      return false;
    if (tok[1] == '[') {
      unsigned a = 0, b = 0;
      if (std::sscanf(tok.c_str() + 1, "[%u:%u]", &a, &b) != 2 || b < a)
        return false;
      o.index = a;
      o.count = b - a + 1;
      return true;
    }
    for (size_t i = 1; i < tok.size(); ++i)
      if (!std::isdigit(static_cast<unsigned char>(tok[i])))
        return false;
    o.index = static_cast<unsigned>(std::stoul(tok.substr(1)));
    o.count = 1;
    return true;
  };
  if (range('v')) {
    o.kind = Operand::Kind::V;
    return o;
  }
  if (range('s')) {
    o.kind = Operand::Kind::S;
    return o;
  }
  static const std::pair<const char *, std::pair<unsigned, unsigned>> named[] = {
      {"vcc_lo", {kVcc, 1}}, {"vcc_hi", {kVcc + 1, 1}}, {"exec_lo", {kExec, 1}}, {"exec_hi", {kExec + 1, 1}},
      {"m0", {kM0, 1}}, {"flat_scratch_lo", {kFlatScratch, 1}}, {"flat_scratch_hi", {kFlatScratch + 1, 1}},
      {"src_shared_base", {kSrcSharedBase, 2}}, {"src_private_base", {kSrcPrivateBase, 2}}};
  for (auto &[n, r] : named)
    if (tok == n) {
      o.kind = Operand::Kind::S;
      o.index = r.first;
      o.count = r.second;
      return o;
    }
  // Trap temporaries ttmp0..15 share the SGPR file's encodings 108..123
  // (Vega ISA 3.2.4 "SGPR allocation"); gfx12 delivers workgroup IDs there.
  if (tok.rfind("ttmp", 0) == 0 && tok.size() > 4 && tok.size() <= 6 &&
      tok.find_first_not_of("0123456789", 4) == std::string::npos && std::stoul(tok.substr(4)) < 16) {
    o.kind = Operand::Kind::S;
    o.index = kTtmp0 + static_cast<unsigned>(std::stoul(tok.substr(4)));
    o.count = 1;
    return o;
  }
  if (tok == "vcc" || tok == "exec") {
    o.kind = Operand::Kind::S;
    o.index = tok == "vcc" ? kVcc : kExec;
    o.count = wave == 64 ? 2 : 1;
    return o;
  }
  if (tok == "off") {
    o.kind = Operand::Kind::Off;
    return o;
  }
  if (tok == "null") {
    o.kind = Operand::Kind::Null;
    return o;
  }
  if (std::optional<uint64_t> v = parseInt(tok)) {
    o.kind = Operand::Kind::Imm;
    o.imm = *v;
    const int64_t sv = static_cast<int64_t>(*v);
    o.inlineConst = (sv >= -16 && sv <= 64) && tok.rfind("0x", 0) != 0;
    if (tok.rfind("0x", 0) == 0 && *v <= 0xffffffffull) // a literal: 32 bits, zero-extended
      o.imm = *v;
    return o;
  }
  // Inline floating-point constants, as the printer spells them for bits
  // that happen to match (Vega ISA 12.6 "Inline constants").
  static const std::pair<const char *, uint32_t> floats[] = {
      {"0.5", 0x3f000000u},  {"-0.5", 0xbf000000u}, {"1.0", 0x3f800000u},  {"-1.0", 0xbf800000u},
      {"2.0", 0x40000000u},  {"-2.0", 0xc0000000u}, {"4.0", 0x40800000u},  {"-4.0", 0xc0800000u},
      {"0.15915494", 0x3e22f983u}};
  for (auto &[n, bits] : floats)
    if (tok == n) {
      o.kind = Operand::Kind::Imm;
      o.imm = bits;
      o.inlineConst = true;
      return o;
    }
  return o; // Kind::Other
}

Parsed parseText(const std::string &text, unsigned wave) {
  Parsed p;
  size_t sp = text.find(' ');
  p.mnemonic = text.substr(0, sp);
  if (sp == std::string::npos)
    return p;
  p.rest = text.substr(sp + 1);
  std::vector<std::string> toks;
  std::string cur;
  for (char c : p.rest) {
    if (c == ',') {
      toks.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  toks.push_back(cur);
  for (std::string &t : toks) {
    size_t b = t.find_first_not_of(' ');
    t = b == std::string::npos ? "" : t.substr(b);
  }
  // Modifiers follow the last operand, separated by spaces.
  std::string &last = toks.back();
  size_t s2 = last.find(' ');
  if (s2 != std::string::npos) {
    std::string mods = last.substr(s2 + 1);
    last = last.substr(0, s2);
    std::string m;
    for (char c : mods + " ") {
      if (c == ' ') {
        if (!m.empty())
          p.modifiers.push_back(m);
        m.clear();
      } else {
        m += c;
      }
    }
  }
  for (const std::string &t : toks)
    p.ops.push_back(parseOperand(t, wave));
  return p;
}

std::string stripEncoding(const std::string &m) {
  for (const char *suf : {"_e32", "_e64"})
    if (m.size() > 4 && m.compare(m.size() - 4, 4, suf) == 0)
      return m.substr(0, m.size() - 4);
  return m;
}

// ---- memory instruction table (gfx9 names; t.mnemonic gives the target's) ----

// Atomic operations as AMD's ISA guides define them (Vega ISA 9.5 FLAT and
// 11 LDS opcode tables; tmp = the old value, DATA the data operand).
enum class AmdAtomic { None, Add, Inc, Dec, Umin, Smin, Umax, Smax, And, Or, Xor, Swap, Cmpswap };

struct MemOp {
  const char *gfx9Name;
  enum Kind {
    GlobalLoad, GlobalStore, ScalarLoad, LdsLoad, LdsStore, ScratchLoad, ScratchStore, FlatLoad, FlatStore,
    GlobalAtomic, LdsAtomic, LdsPermute
  } kind;
  unsigned bytes;
  bool sign;
  AmdAtomic atomic = AmdAtomic::None;
};

// What an atomic leaves in memory. CMPSWAP: DATA = {src, cmp}: tmp == cmp ? src : tmp.
uint64_t amdAtomicResult(AmdAtomic a, unsigned bytes, uint64_t tmp, uint64_t data, uint64_t cmp) {
  const uint64_t mask = bytes == 8 ? ~0ull : 0xffffffffull;
  auto sx = [&](uint64_t x) { return bytes == 8 ? int64_t(x) : int64_t(int32_t(uint32_t(x))); };
  switch (a) {
  case AmdAtomic::Add: return (tmp + data) & mask;
  case AmdAtomic::Inc: return tmp >= data ? 0 : (tmp + 1) & mask;
  case AmdAtomic::Dec: return (tmp == 0 || tmp > data) ? data : tmp - 1;
  case AmdAtomic::Umin: return std::min(tmp, data);
  case AmdAtomic::Smin: return sx(data) < sx(tmp) ? data : tmp;
  case AmdAtomic::Umax: return std::max(tmp, data);
  case AmdAtomic::Smax: return sx(data) > sx(tmp) ? data : tmp;
  case AmdAtomic::And: return tmp & data;
  case AmdAtomic::Or: return tmp | data;
  case AmdAtomic::Xor: return tmp ^ data;
  case AmdAtomic::Swap: return data;
  case AmdAtomic::Cmpswap: return tmp == cmp ? data : tmp;
  case AmdAtomic::None: break;
  }
  return tmp;
}

const MemOp kMemOps[] = {
    {"global_load_ubyte", MemOp::GlobalLoad, 1, false},   {"global_load_sbyte", MemOp::GlobalLoad, 1, true},
    {"global_load_ushort", MemOp::GlobalLoad, 2, false},  {"global_load_sshort", MemOp::GlobalLoad, 2, true},
    {"global_load_dword", MemOp::GlobalLoad, 4, false},   {"global_load_dwordx2", MemOp::GlobalLoad, 8, false},
    {"global_load_dwordx4", MemOp::GlobalLoad, 16, false}, {"global_store_byte", MemOp::GlobalStore, 1, false},
    {"global_store_short", MemOp::GlobalStore, 2, false}, {"global_store_dword", MemOp::GlobalStore, 4, false},
    {"global_store_dwordx2", MemOp::GlobalStore, 8, false}, {"global_store_dwordx4", MemOp::GlobalStore, 16, false},
    {"s_load_dword", MemOp::ScalarLoad, 4, false},        {"s_load_dwordx2", MemOp::ScalarLoad, 8, false},
    {"s_load_dwordx4", MemOp::ScalarLoad, 16, false},     {"s_load_dwordx8", MemOp::ScalarLoad, 32, false},
    {"s_load_dwordx16", MemOp::ScalarLoad, 64, false},    {"ds_read_u8", MemOp::LdsLoad, 1, false},
    {"ds_read_i8", MemOp::LdsLoad, 1, true},              {"ds_read_u16", MemOp::LdsLoad, 2, false},
    {"ds_read_i16", MemOp::LdsLoad, 2, true},             {"ds_read_b32", MemOp::LdsLoad, 4, false},
    {"ds_read_b64", MemOp::LdsLoad, 8, false},            {"ds_write_b8", MemOp::LdsStore, 1, false},
    {"ds_write_b16", MemOp::LdsStore, 2, false},          {"ds_write_b32", MemOp::LdsStore, 4, false},
    {"ds_write_b64", MemOp::LdsStore, 8, false},          {"ds_bpermute_b32", MemOp::LdsPermute, 4, false},
    {"scratch_load_ubyte", MemOp::ScratchLoad, 1, false}, {"scratch_load_sbyte", MemOp::ScratchLoad, 1, true},
    {"scratch_load_ushort", MemOp::ScratchLoad, 2, false}, {"scratch_load_sshort", MemOp::ScratchLoad, 2, true},
    {"scratch_load_dword", MemOp::ScratchLoad, 4, false}, {"scratch_load_dwordx2", MemOp::ScratchLoad, 8, false},
    {"scratch_store_byte", MemOp::ScratchStore, 1, false}, {"scratch_store_short", MemOp::ScratchStore, 2, false},
    {"scratch_store_dword", MemOp::ScratchStore, 4, false}, {"scratch_store_dwordx2", MemOp::ScratchStore, 8, false},
    {"flat_load_ubyte", MemOp::FlatLoad, 1, false},       {"flat_load_sbyte", MemOp::FlatLoad, 1, true},
    {"flat_load_ushort", MemOp::FlatLoad, 2, false},      {"flat_load_sshort", MemOp::FlatLoad, 2, true},
    {"flat_load_dword", MemOp::FlatLoad, 4, false},       {"flat_load_dwordx2", MemOp::FlatLoad, 8, false},
    {"flat_store_byte", MemOp::FlatStore, 1, false},      {"flat_store_short", MemOp::FlatStore, 2, false},
    {"flat_store_dword", MemOp::FlatStore, 4, false},     {"flat_store_dwordx2", MemOp::FlatStore, 8, false},
    {"global_atomic_add", MemOp::GlobalAtomic, 4, false, AmdAtomic::Add},
    {"global_atomic_inc", MemOp::GlobalAtomic, 4, false, AmdAtomic::Inc},
    {"global_atomic_dec", MemOp::GlobalAtomic, 4, false, AmdAtomic::Dec},
    {"global_atomic_umin", MemOp::GlobalAtomic, 4, false, AmdAtomic::Umin},
    {"global_atomic_smin", MemOp::GlobalAtomic, 4, false, AmdAtomic::Smin},
    {"global_atomic_umax", MemOp::GlobalAtomic, 4, false, AmdAtomic::Umax},
    {"global_atomic_smax", MemOp::GlobalAtomic, 4, false, AmdAtomic::Smax},
    {"global_atomic_and", MemOp::GlobalAtomic, 4, false, AmdAtomic::And},
    {"global_atomic_or", MemOp::GlobalAtomic, 4, false, AmdAtomic::Or},
    {"global_atomic_xor", MemOp::GlobalAtomic, 4, false, AmdAtomic::Xor},
    {"global_atomic_swap", MemOp::GlobalAtomic, 4, false, AmdAtomic::Swap},
    {"global_atomic_cmpswap", MemOp::GlobalAtomic, 4, false, AmdAtomic::Cmpswap},
    {"global_atomic_add_x2", MemOp::GlobalAtomic, 8, false, AmdAtomic::Add},
    {"global_atomic_umin_x2", MemOp::GlobalAtomic, 8, false, AmdAtomic::Umin},
    {"global_atomic_smin_x2", MemOp::GlobalAtomic, 8, false, AmdAtomic::Smin},
    {"global_atomic_umax_x2", MemOp::GlobalAtomic, 8, false, AmdAtomic::Umax},
    {"global_atomic_smax_x2", MemOp::GlobalAtomic, 8, false, AmdAtomic::Smax},
    {"global_atomic_and_x2", MemOp::GlobalAtomic, 8, false, AmdAtomic::And},
    {"global_atomic_or_x2", MemOp::GlobalAtomic, 8, false, AmdAtomic::Or},
    {"global_atomic_xor_x2", MemOp::GlobalAtomic, 8, false, AmdAtomic::Xor},
    {"global_atomic_swap_x2", MemOp::GlobalAtomic, 8, false, AmdAtomic::Swap},
    {"ds_add_rtn_u32", MemOp::LdsAtomic, 4, false, AmdAtomic::Add},
    {"ds_add_u32", MemOp::LdsAtomic, 4, false, AmdAtomic::Add},
    {"ds_inc_rtn_u32", MemOp::LdsAtomic, 4, false, AmdAtomic::Inc},
    {"ds_inc_u32", MemOp::LdsAtomic, 4, false, AmdAtomic::Inc},
    {"ds_dec_rtn_u32", MemOp::LdsAtomic, 4, false, AmdAtomic::Dec},
    {"ds_dec_u32", MemOp::LdsAtomic, 4, false, AmdAtomic::Dec},
    {"ds_min_rtn_u32", MemOp::LdsAtomic, 4, false, AmdAtomic::Umin},
    {"ds_min_u32", MemOp::LdsAtomic, 4, false, AmdAtomic::Umin},
    {"ds_min_rtn_i32", MemOp::LdsAtomic, 4, false, AmdAtomic::Smin},
    {"ds_min_i32", MemOp::LdsAtomic, 4, false, AmdAtomic::Smin},
    {"ds_max_rtn_u32", MemOp::LdsAtomic, 4, false, AmdAtomic::Umax},
    {"ds_max_u32", MemOp::LdsAtomic, 4, false, AmdAtomic::Umax},
    {"ds_max_rtn_i32", MemOp::LdsAtomic, 4, false, AmdAtomic::Smax},
    {"ds_max_i32", MemOp::LdsAtomic, 4, false, AmdAtomic::Smax},
    {"ds_and_rtn_b32", MemOp::LdsAtomic, 4, false, AmdAtomic::And},
    {"ds_and_b32", MemOp::LdsAtomic, 4, false, AmdAtomic::And},
    {"ds_or_rtn_b32", MemOp::LdsAtomic, 4, false, AmdAtomic::Or},
    {"ds_or_b32", MemOp::LdsAtomic, 4, false, AmdAtomic::Or},
    {"ds_xor_rtn_b32", MemOp::LdsAtomic, 4, false, AmdAtomic::Xor},
    {"ds_xor_b32", MemOp::LdsAtomic, 4, false, AmdAtomic::Xor},
    {"ds_wrxchg_rtn_b32", MemOp::LdsAtomic, 4, false, AmdAtomic::Swap},
    {"ds_cmpst_rtn_b32", MemOp::LdsAtomic, 4, false, AmdAtomic::Cmpswap},
    {"ds_cmpstore_rtn_b32", MemOp::LdsAtomic, 4, false, AmdAtomic::Cmpswap}, // gfx11+: {new, cmp}
};

// Where the emulated runtime puts scratch: the flat-scratch base it passes
// in flat_scratch_init, and each wave's offset from it.
constexpr uint64_t kScratchInitBase = 0x0000100000000000ull;
constexpr uint64_t kScratchWaveStride = 0x100000;

// ---- waves ----

struct PendingLoad {
  Counter counter;
  bool lds = false;                 // counts in lgkmcnt (gfx9-11) / dscnt (gfx12)
  // FLAT: counts in its VMEM counter and in lgkmcnt/dscnt; its values are
  // written once waits on both have retired it.
  bool flat = false, vmDone = false, lgkmDone = false;
  std::vector<unsigned> keys;       // registers it will write (VGPR n / 1000 + SGPR n)
  std::vector<std::pair<unsigned, uint32_t>> writes; // (key * 64 + lane) for VGPRs, key for SGPRs -> value
  long instruction = 0;
  std::string text;
};


struct Wave {
  unsigned firstThread = 0; // linear thread id within the block of lane 0
  std::vector<uint32_t> v;  // v[reg * W + lane]
  uint32_t s[kNumSgprs] = {};
  bool scc = false;
  size_t pc = 0;
  bool done = false, atBarrier = false;
  uint64_t steps = 0;
  std::deque<PendingLoad> pending;
  std::deque<targets::IssuedInstruction> history;
  std::vector<std::vector<uint8_t>> scratch; // per lane: the private segment
  uint64_t flatScratchExpected = 0;          // what FLAT_SCRATCH must hold (kernel-initialised scratch)
  uint64_t flatScratchSet = 0;               // gfx10: written through s_setreg (lo | hi << 32)
};

class Emulator {
public:
  Emulator(const LoadedKernel &k, const targets::TargetInfo &t, const Launch &l, GlobalMemory &mem, const Options &o)
      : k_(k), t_(t), l_(l), mem_(mem), o_(o), W_(k.descriptor.wavefrontSize32() ? 32 : 64),
        nv_(k.descriptor.vgprCount(t)) {
    for (const amd::OpDef &d : amd::allOps()) {
      if (d.semantics && amd::available(d.op, t))
        byMnemonic_.insert({stripEncoding(amd::mnemonic(d.op, t)), d.op});
      if (d.encoding == amd::Encoding::CacheMaintenance)
        cacheMaintenance_.insert(amd::mnemonic(d.op, t));
    }
    for (size_t i = 0; i < k.code.size(); ++i) {
      parsed_.push_back(parseText(k.code[i].text, W_));
      offsetIndex_[k.code[i].offset] = i;
    }
  }

  std::optional<Fault> run() {
    if (W_ != t_.wave_size)
      return Fault{"the descriptor asks for wave" + std::to_string(W_) + " but " + t_.name + " code is wave" +
                       std::to_string(t_.wave_size) + " here",
                   -1};
    if (k_.descriptor.userPrivateSegmentBuffer() || k_.descriptor.userQueuePtr())
      return Fault{"the descriptor requests a private segment buffer or the queue pointer, which the emulator does "
                   "not provide (scratch goes through flat scratch)",
                   -1};
    if (k_.descriptor.userFlatScratchInit() && t_.architected_flat_scratch)
      return Fault{t_.name + " sets up flat scratch itself; the descriptor must not ask for flat_scratch_init", -1};
    if (k_.descriptor.privateSegmentEnabled() && !t_.architected_flat_scratch && !k_.descriptor.userFlatScratchInit())
      return Fault{"scratch is enabled but the descriptor does not ask for flat_scratch_init: on " + t_.name +
                       " the kernel must set FLAT_SCRATCH from it",
                   -1};
    for (unsigned bz = 0; bz < l_.grid.z; ++bz)
      for (unsigned by = 0; by < l_.grid.y; ++by)
        for (unsigned bx = 0; bx < l_.grid.x; ++bx) {
          if (std::optional<Fault> f = runWorkgroup(bx, by, bz))
            return f;
          if (o_.afterBlock)
            o_.afterBlock(blockLinear_ + 1);
        }
    return std::nullopt;
  }

private:
  // ---- initial state (AMDGPUUsage "Initial Kernel Execution State") ----

  std::optional<Fault> runWorkgroup(unsigned bx, unsigned by, unsigned bz) {
    const KernelDescriptor &kd = k_.descriptor;
    const uint64_t threads = l_.block.count();
    const unsigned waves = static_cast<unsigned>((threads + W_ - 1) / W_);
    lds_.assign(size_t(kd.groupSegmentFixedSize) + l_.dynamicLdsBytes, 0);
    blockLinear_ = (uint64_t(bz) * l_.grid.y + by) * l_.grid.x + bx;
    std::vector<Wave> ws(waves);
    for (unsigned w = 0; w < waves; ++w) {
      Wave &wave = ws[w];
      wave.firstThread = w * W_;
      wave.v.assign(size_t(nv_) * W_, 0xdeadbeefu); // VGPRs start as junk, as on hardware
      for (uint32_t &x : wave.s)
        x = 0xdeadbeefu;
      uint64_t exec = 0;
      for (unsigned lane = 0; lane < W_; ++lane)
        if (wave.firstThread + lane < threads)
          exec |= uint64_t(1) << lane;
      setMask(wave, kExec, exec);
      // User SGPRs, in the fixed order the descriptor's enables define.
      unsigned u = 0;
      auto put64 = [&](uint64_t v) {
        wave.s[u++] = static_cast<uint32_t>(v);
        wave.s[u++] = static_cast<uint32_t>(v >> 32);
      };
      if (kd.userDispatchPtr())
        put64(l_.dispatchAddress);
      if (kd.userKernargSegmentPtr())
        put64(l_.kernargAddress);
      if (kd.userDispatchId())
        put64(0);
      if (kd.userFlatScratchInit())
        put64(kScratchInitBase);
      if (kd.userPrivateSegmentSize())
        wave.s[u++] = 0;
      // USER_SGPR_COUNT may pad beyond the enabled ones (the padding holds
      // nothing useful); gfx1100 in wave32 needs at least 16 user + system
      // SGPRs enabled (LLVM FeatureUserSGPRInit16Bug).
      if (u > kd.userSgprCount())
        return Fault{"the descriptor enables " + std::to_string(u) + " user SGPRs but USER_SGPR_COUNT says " +
                         std::to_string(kd.userSgprCount()),
                     -1};
      unsigned system = kd.workgroupInfo() ? 1 : 0;
      for (unsigned d = 0; d < 3; ++d)
        system += kd.workgroupId(d) ? 1 : 0;
      if (t_.min_user_sgpr_count && W_ == 32 && kd.userSgprCount() + system < 16)
        return Fault{"on " + t_.name + " in wave32 at least 16 user and system SGPRs must be enabled (a hardware "
                     "bug); the descriptor enables " + std::to_string(kd.userSgprCount()) + " + " +
                         std::to_string(system) + ": pad USER_SGPR_COUNT",
                     -1};
      u = kd.userSgprCount();
      const unsigned ids[3] = {bx, by, bz};
      if (t_.architected_workgroup_ids) {
        // gfx12: TTMP9 = x, TTMP7 = y | z << 16; the system SGPRs are not
        // written (this model assumes the least the hardware promises).
        wave.s[kTtmp0 + 9] = bx;
        wave.s[kTtmp0 + 7] = (by & 0xffff) | (bz << 16);
      } else {
        for (unsigned d = 0; d < 3; ++d)
          if (kd.workgroupId(d))
            wave.s[u++] = ids[d];
      }
      if (kd.workgroupInfo())
        wave.s[u++] = 0;
      wave.s[kSrcSharedBase + 1] = static_cast<uint32_t>(kSharedAperture >> 32);
      wave.s[kSrcPrivateBase + 1] = static_cast<uint32_t>(kPrivateAperture >> 32);
      // Scratch: each lane's private segment; on kernel-initialised targets
      // the wave's offset arrives last and FLAT_SCRATCH must be computed.
      if (kd.privateSegmentEnabled()) {
        wave.scratch.assign(W_, std::vector<uint8_t>(kd.privateSegmentFixedSize, 0));
        const uint64_t waveOffset = (blockLinear_ * waves + w) * kScratchWaveStride;
        wave.flatScratchExpected = kScratchInitBase + waveOffset;
        if (!t_.architected_flat_scratch)
          wave.s[u++] = static_cast<uint32_t>(waveOffset);
      }
      // Work-item IDs.
      for (unsigned lane = 0; lane < W_; ++lane) {
        const uint64_t lin = wave.firstThread + lane;
        const unsigned x = static_cast<unsigned>(lin % l_.block.x);
        const unsigned y = static_cast<unsigned>((lin / l_.block.x) % l_.block.y);
        const unsigned z = static_cast<unsigned>(lin / (uint64_t(l_.block.x) * l_.block.y));
        const unsigned dims = kd.workItemIdDims();
        if (t_.packed_work_item_ids) {
          wave.v[lane] = x | (dims >= 1 ? y << 10 : 0) | (dims >= 2 ? z << 20 : 0);
        } else {
          wave.v[lane] = x;
          if (dims >= 1 && nv_ > 1)
            wave.v[size_t(1) * W_ + lane] = y;
          if (dims >= 2 && nv_ > 2)
            wave.v[size_t(2) * W_ + lane] = z;
        }
      }
    }
    for (;;) {
      for (Wave &w : ws)
        if (!w.done && !w.atBarrier)
          if (std::optional<Fault> f = runWave(w))
            return f;
      bool live = false;
      for (Wave &w : ws)
        live |= !w.done;
      if (!live)
        return std::nullopt;
      for (Wave &w : ws)
        w.atBarrier = false;
    }
  }

  // ---- registers ----

  uint64_t mask(const Wave &w, unsigned sgpr) const {
    return W_ == 64 ? (uint64_t(w.s[sgpr + 1]) << 32) | w.s[sgpr] : w.s[sgpr];
  }
  void setMask(Wave &w, unsigned sgpr, uint64_t m) {
    w.s[sgpr] = static_cast<uint32_t>(m);
    if (W_ == 64)
      w.s[sgpr + 1] = static_cast<uint32_t>(m >> 32);
  }
  uint64_t exec(const Wave &w) const { return mask(w, kExec); }

  Fault fault(long inst, std::string msg) const { return Fault{std::move(msg), inst}; }

  std::optional<Fault> checkRange(const Operand &o, long inst) const {
    if (o.kind == Operand::Kind::V && o.index + o.count > nv_)
      return fault(inst, "'" + o.text + "' is beyond the " + std::to_string(nv_) +
                             " VGPRs the kernel descriptor allocates");
    if (o.kind == Operand::Kind::S && o.index + o.count > kNumSgprs)
      return fault(inst, "'" + o.text + "' is not an SGPR the emulator models");
    return std::nullopt;
  }

  std::vector<unsigned> keys(const Operand &o) const {
    std::vector<unsigned> k;
    if (o.kind == Operand::Kind::V)
      for (unsigned i = 0; i < o.count; ++i)
        k.push_back(o.index + i);
    if (o.kind == Operand::Kind::S)
      for (unsigned i = 0; i < o.count; ++i)
        k.push_back(1000 + o.index + i);
    return k;
  }

  // A lane's value of an operand in a VALU slot.
  BV laneValue(const Wave &w, const Operand &o, amd::Slot slot, unsigned lane) const {
    switch (slot) {
    case amd::Slot::Mask: {
      const uint64_t m = o.kind == Operand::Kind::S ? mask(w, o.index) : o.imm;
      return BV::constant(1, (m >> lane) & 1);
    }
    case amd::Slot::V64:
      if (o.kind == Operand::Kind::V)
        return BV::constant(64, (uint64_t(w.v[size_t(o.index + 1) * W_ + lane]) << 32) | w.v[size_t(o.index) * W_ + lane]);
      if (o.kind == Operand::Kind::S)
        return BV::constant(64, (uint64_t(w.s[o.index + 1]) << 32) | w.s[o.index]);
      return BV::constant(64, o.inlineConst ? o.imm : (o.imm & 0xffffffffu));
    default:
      if (o.kind == Operand::Kind::V)
        return BV::constant(32, w.v[size_t(o.index) * W_ + lane]);
      if (o.kind == Operand::Kind::S)
        return BV::constant(32, w.s[o.index]);
      return BV::constant(32, o.imm & 0xffffffffu);
    }
  }

  // ---- hazards and outstanding memory ----

  targets::InstFacts facts(const Parsed &p, const MemOp *mem) const {
    targets::InstFacts f;
    f.mnemonic = p.mnemonic;
    const std::string &m = p.mnemonic;
    if (mem)
      f.cls = mem->kind == MemOp::ScalarLoad ? InstClass::Smem
              : (mem->kind == MemOp::LdsLoad || mem->kind == MemOp::LdsStore || mem->kind == MemOp::LdsAtomic ||
                 mem->kind == MemOp::LdsPermute)
                  ? InstClass::Lds
                  : InstClass::Vmem;
    else if (m.rfind("v_", 0) == 0)
      f.cls = InstClass::Valu;
    else if (m.rfind("s_cbranch", 0) == 0 || m == "s_branch")
      f.cls = InstClass::Branch;
    else if (m.rfind("s_wait", 0) == 0 || m == "s_nop" || m == "s_endpgm" || m.rfind("s_barrier", 0) == 0 ||
             m == "s_delay_alu")
      f.cls = InstClass::Other;
    else if (m.rfind("s_", 0) == 0)
      f.cls = InstClass::Salu;
    const bool store = mem && (mem->kind == MemOp::GlobalStore || mem->kind == MemOp::LdsStore ||
                               (mem->atomic != AmdAtomic::None && !atomicReturns(p, *mem)));
    for (size_t i = 0; i < p.ops.size(); ++i) {
      const Operand &o = p.ops[i];
      const bool written = !store && f.cls != InstClass::Other && f.cls != InstClass::Branch &&
                           (i == 0 || (i == 1 && carryOut(p)));
      std::vector<unsigned> &sg = written ? f.sgprWrites : f.sgprReads;
      std::vector<unsigned> &vg = written ? f.vgprWrites : f.vgprReads;
      for (unsigned k = 0; k < o.count; ++k) {
        if (o.kind == Operand::Kind::S)
          sg.push_back(o.index + k);
        if (o.kind == Operand::Kind::V)
          vg.push_back(o.index + k);
      }
    }
    if (store && mem)
      f.storeDataBytes = mem->bytes;
    if (m.rfind("v_readlane", 0) == 0 || m.rfind("v_writelane", 0) == 0)
      if (p.ops.size() >= 3 && p.ops[2].kind == Operand::Kind::S)
        f.laneSelectSgprs.push_back(p.ops[2].index);
    return f;
  }

  // Does an atomic write its old value to a VGPR? LDS: the _rtn names;
  // global: the return bit (glc, sc0 on MI300, th:TH_ATOMIC_RETURN on gfx12).
  static bool atomicReturns(const Parsed &p, const MemOp &mo) {
    if (mo.kind == MemOp::LdsAtomic)
      return p.mnemonic.find("_rtn") != std::string::npos;
    for (const std::string &m : p.modifiers)
      if (m == "glc" || m == "sc0" || m == "th:TH_ATOMIC_RETURN")
        return true;
    return false;
  }

  bool carryOut(const Parsed &p) const {
    auto it = byMnemonic_.find(stripEncoding(p.mnemonic));
    return it != byMnemonic_.end() && amd::opDef(it->second).writesVcc();
  }

  std::optional<Fault> checkHazards(Wave &w, const targets::InstFacts &f, long inst) {
    std::optional<targets::HazardHit> h = targets::findHazard(w.history, f, t_);
    if (!h)
      return std::nullopt;
    return fault(inst, "hazard '" + h->rule->name + "': '" + k_.code[size_t(inst)].text + "' follows '" +
                           k_.code[size_t(h->producer->instruction)].text + "' with " +
                           (h->needsValu ? std::string("no VALU instruction")
                                         : std::to_string(h->statesBetween) + " wait state(s)") +
                           " between; " + h->rule->cite);
  }

  std::optional<Fault> checkPending(const Wave &w, const Parsed &p, long inst) const {
    for (const Operand &o : p.ops)
      for (unsigned k : keys(o))
        for (const PendingLoad &pl : w.pending)
          if (std::find(pl.keys.begin(), pl.keys.end(), k) != pl.keys.end()) {
            const char *counter = pl.flat ? (pl.vmDone ? (t_.counters == targets::TargetInfo::Counters::Gfx12 ? "dscnt" : "lgkmcnt")
                                                       : t_.counters == targets::TargetInfo::Counters::Gfx12 ? "loadcnt" : "vmcnt")
                                  : pl.counter == Counter::Scalar ? (t_.counters == targets::TargetInfo::Counters::Gfx12 ? "kmcnt" : "lgkmcnt")
                                  : pl.lds ? "lgkmcnt"
                                  : t_.counters == targets::TargetInfo::Counters::Gfx12 ? "loadcnt"
                                                                                         : "vmcnt";
            return fault(inst, "'" + k_.code[size_t(inst)].text + "' uses '" + o.text + "' while '" + pl.text +
                                   "' (instruction " + std::to_string(pl.instruction) +
                                   ") may still be writing it: no wait on " + counter + " retired that load");
          }
    return std::nullopt;
  }

  void retire(Wave &w, const PendingLoad &pl) {
    for (auto [key, value] : pl.writes) {
      if (pl.counter == Counter::Scalar && !pl.lds) // SMEM writes SGPRs; LDS loads write VGPRs
        w.s[key - 1000] = value;
      else
        w.v[size_t(key / 64) * W_ + key % 64] = value;
    }
  }

  // Waits until at most `n` operations of a counter are outstanding.
  // In-order counters retire the oldest first; SMEM returns out of order,
  // so only a wait for zero guarantees any particular load.
  void waitFor(Wave &w, Counter c, bool lds, unsigned n) {
    const bool gfx12 = t_.counters == targets::TargetInfo::Counters::Gfx12;
    const bool lgkmWait = c == Counter::Scalar && (!gfx12 || lds); // lgkmcnt, or gfx12's dscnt
    auto counts = [&](const PendingLoad &pl) {
      if (pl.flat) {
        if (c == Counter::Scalar)
          return lgkmWait && !pl.lgkmDone;
        return !pl.vmDone && (targets::storesShareLoadCounter(t_) || pl.counter == c);
      }
      if (c == Counter::Scalar && lds && gfx12) // s_wait_dscnt: LDS only
        return pl.lds;
      if (c == Counter::Scalar) // lgkmcnt (both) or gfx12's kmcnt (SMEM only)
        return (pl.counter == Counter::Scalar && !pl.lds) || (pl.lds && !gfx12);
      if (pl.lds || pl.counter == Counter::Scalar)
        return false;
      if (targets::storesShareLoadCounter(t_))
        return true;
      return pl.counter == c;
    };
    unsigned outstanding = 0;
    for (const PendingLoad &pl : w.pending)
      outstanding += counts(pl);
    if (outstanding <= n)
      return;
    // SMEM may return out of order; LDS alone (gfx12 dscnt) returns in order.
    const bool inOrder = c != Counter::Scalar || (lds && gfx12);
    if (!inOrder && n != 0)
      return; // which SMEM loads completed is unknown: none is guaranteed
    unsigned toRetire = outstanding - n;
    std::deque<PendingLoad> rest;
    for (PendingLoad &pl : w.pending) {
      if (toRetire && counts(pl)) {
        --toRetire;
        if (pl.flat) {
          (c == Counter::Scalar ? pl.lgkmDone : pl.vmDone) = true;
          if (!pl.lgkmDone || !pl.vmDone) {
            rest.push_back(std::move(pl));
            continue;
          }
        }
        retire(w, pl);
      } else {
        rest.push_back(std::move(pl));
      }
    }
    w.pending = std::move(rest);
  }

  std::optional<Fault> execWait(Wave &w, const Parsed &p, long inst) {
    const std::string &m = p.mnemonic;
    auto num = [&](const std::string &s) -> std::optional<unsigned> {
      std::optional<uint64_t> v = parseInt(s);
      if (!v)
        return std::nullopt;
      return static_cast<unsigned>(*v);
    };
    if (m == "s_waitcnt") {
      // "vmcnt(0) expcnt(0) lgkmcnt(0)" (fields absent = no wait), or a raw
      // immediate, which the printer uses only when no field applies.
      std::string r = p.rest;
      size_t at = 0;
      bool any = false;
      while ((at = r.find('(', at)) != std::string::npos) {
        size_t nameStart = r.rfind(' ', at);
        nameStart = nameStart == std::string::npos ? 0 : nameStart + 1;
        const std::string name = r.substr(nameStart, at - nameStart);
        const size_t close = r.find(')', at);
        std::optional<unsigned> n = num(r.substr(at + 1, close - at - 1));
        if (!n)
          return fault(inst, "cannot read the wait '" + p.rest + "'");
        if (name == "vmcnt")
          waitFor(w, Counter::VmLoad, false, *n);
        else if (name == "lgkmcnt")
          waitFor(w, Counter::Scalar, false, *n);
        at = close;
        any = true;
      }
      if (!any && !num(p.rest))
        return fault(inst, "cannot read the wait '" + p.rest + "'");
      return std::nullopt;
    }
    if (m == "s_waitcnt_vscnt") {
      std::optional<unsigned> n = p.ops.size() == 2 ? num(p.ops[1].text) : std::nullopt;
      if (!n)
        return fault(inst, "cannot read the wait '" + p.rest + "'");
      waitFor(w, Counter::VmStore, false, *n);
      return std::nullopt;
    }
    if (m == "s_wait_loadcnt" || m == "s_wait_storecnt" || m == "s_wait_kmcnt" || m == "s_wait_dscnt") {
      std::optional<unsigned> n = p.ops.size() == 1 ? num(p.ops[0].text) : std::nullopt;
      if (!n)
        return fault(inst, "cannot read the wait '" + p.rest + "'");
      waitFor(w,
              m == "s_wait_loadcnt" ? Counter::VmLoad : m == "s_wait_storecnt" ? Counter::VmStore : Counter::Scalar,
              m == "s_wait_dscnt", *n);
      return std::nullopt;
    }
    return fault(inst, "unknown wait instruction '" + m + "'");
  }

  // ---- execution ----

  const MemOp *memOp(const std::string &mnemonic) const {
    for (const MemOp &mo : kMemOps)
      if (t_.mnemonic(mo.gfx9Name) == mnemonic)
        return &mo;
    return nullptr;
  }

  std::optional<Fault> execMemory(Wave &w, const Parsed &p, const MemOp &mo, long inst) {
    int64_t offset = 0;
    for (const std::string &m : p.modifiers)
      if (m.rfind("offset:", 0) == 0)
        offset = static_cast<int64_t>(*parseInt(m.substr(7)));
    PendingLoad pl;
    pl.instruction = inst;
    pl.text = k_.code[size_t(inst)].text;
    const uint64_t ex = exec(w);
    if (mo.kind == MemOp::ScalarLoad) {
      // s_load sdst, sbase, offset (Vega ISA 5: byte offset, address = sbase + offset)
      // The offset is an immediate, an SGPR, or `null` (gfx10+ print a zero
      // offset as the null SGPR).
      if (p.ops.size() != 3 || p.ops[0].kind != Operand::Kind::S || p.ops[1].kind != Operand::Kind::S ||
          (p.ops[2].kind != Operand::Kind::Imm && p.ops[2].kind != Operand::Kind::Null &&
           p.ops[2].kind != Operand::Kind::S))
        return fault(inst, "unexpected operands in '" + pl.text + "'");
      const uint64_t off = p.ops[2].kind == Operand::Kind::Imm ? p.ops[2].imm
                           : p.ops[2].kind == Operand::Kind::S ? w.s[p.ops[2].index]
                                                               : 0;
      const uint64_t addr = (uint64_t(w.s[p.ops[1].index + 1]) << 32 | w.s[p.ops[1].index]) + off;
      const uint8_t *src = mem_.find(addr & ~uint64_t(3), mo.bytes);
      if (!src)
        return fault(inst, "'" + pl.text + "' reads " + std::to_string(mo.bytes) + " bytes at " + hex(addr) +
                               ", out of bounds (" + mem_.describe(addr) + ")");
      pl.counter = Counter::Scalar;
      pl.keys = keys(p.ops[0]);
      for (unsigned d = 0; d < mo.bytes / 4; ++d)
        pl.writes.push_back({1000 + p.ops[0].index + d, static_cast<uint32_t>(loadLE(src + 4 * d, 4))});
      w.pending.push_back(std::move(pl));
      return std::nullopt;
    }
    if (mo.kind == MemOp::LdsLoad || mo.kind == MemOp::LdsStore) {
      // ds_read_b32 vdst, vaddr [offset:N] / ds_write_b32 vaddr, vdata [offset:N]
      if (p.ops.size() != 2)
        return fault(inst, "unexpected operands in '" + pl.text + "'");
      pl.counter = Counter::Scalar;
      pl.lds = true;
      const Operand &addrOp = mo.kind == MemOp::LdsLoad ? p.ops[1] : p.ops[0];
      const unsigned dwords = std::max(1u, mo.bytes / 4), chunk = std::min(4u, mo.bytes);
      for (unsigned lane = 0; lane < W_; ++lane) {
        if (!((ex >> lane) & 1))
          continue;
        const uint64_t a = uint64_t(w.v[size_t(addrOp.index) * W_ + lane]) + uint64_t(offset);
        if (a + mo.bytes > lds_.size())
          return fault(inst, "'" + pl.text + "' lane " + std::to_string(lane) + " accesses LDS offset " +
                                 std::to_string(a) + ", outside the " + std::to_string(lds_.size()) +
                                 "-byte allocation");
        for (unsigned d = 0; d < dwords; ++d) {
          if (mo.kind == MemOp::LdsLoad) {
            uint64_t v = loadLE(&lds_[a + 4 * d], chunk);
            if (mo.sign && mo.bytes < 4)
              v = BV::constant(mo.bytes * 8, v).sext(32).value();
            pl.writes.push_back({(p.ops[0].index + d) * 64 + lane, static_cast<uint32_t>(v)});
          } else {
            storeLE(&lds_[a + 4 * d], chunk, w.v[size_t(p.ops[1].index + d) * W_ + lane]);
          }
        }
      }
      if (mo.kind == MemOp::LdsLoad)
        pl.keys = keys(p.ops[0]);
      w.pending.push_back(std::move(pl));
      return std::nullopt;
    }
    if (mo.kind == MemOp::LdsPermute) {
      // ds_bpermute_b32 vdst, vaddr, vdata [offset:N]: each active lane gets
      // vdata of lane ((vaddr + offset) / 4) mod the wave size, counted in
      // lgkmcnt like an LDS read. A source lane that is inactive has no
      // defined value here: refuse rather than guess.
      if (p.ops.size() != 3 || p.ops[0].kind != Operand::Kind::V || p.ops[1].kind != Operand::Kind::V ||
          p.ops[2].kind != Operand::Kind::V)
        return fault(inst, "unexpected operands in '" + pl.text + "'");
      pl.counter = Counter::Scalar;
      pl.lds = true;
      for (unsigned lane = 0; lane < W_; ++lane) {
        if (!((ex >> lane) & 1))
          continue;
        const unsigned from = unsigned((uint64_t(w.v[size_t(p.ops[1].index) * W_ + lane]) + uint64_t(offset)) / 4) % W_;
        if (!((ex >> from) & 1))
          return fault(inst, "'" + pl.text + "' lane " + std::to_string(lane) + " reads lane " + std::to_string(from) +
                                 ", which is inactive");
        pl.writes.push_back({p.ops[0].index * 64 + lane, w.v[size_t(p.ops[2].index) * W_ + from]});
      }
      pl.keys = keys(p.ops[0]);
      w.pending.push_back(std::move(pl));
      return std::nullopt;
    }
    if (mo.kind == MemOp::GlobalAtomic || mo.kind == MemOp::LdsAtomic)
      return execAtomic(w, p, mo, inst, offset, std::move(pl));
    if (mo.kind == MemOp::ScratchLoad || mo.kind == MemOp::ScratchStore)
      return execScratch(w, p, mo, inst, offset, std::move(pl));
    if (mo.kind == MemOp::FlatLoad || mo.kind == MemOp::FlatStore)
      return execFlat(w, p, mo, inst, offset, std::move(pl));
    // global_load vdst, vaddr, off|saddr / global_store vaddr, vdata, off|saddr
    const bool store = mo.kind == MemOp::GlobalStore;
    if (p.ops.size() != 3)
      return fault(inst, "unexpected operands in '" + pl.text + "'");
    const Operand &vaddr = store ? p.ops[0] : p.ops[1];
    const Operand &saddr = p.ops[2];
    const Operand &data = store ? p.ops[1] : p.ops[0];
    const unsigned dwords = std::max(1u, mo.bytes / 4);
    pl.counter = store ? Counter::VmStore : Counter::VmLoad;
    for (unsigned lane = 0; lane < W_; ++lane) {
      if (!((ex >> lane) & 1))
        continue;
      uint64_t addr;
      if (saddr.kind == Operand::Kind::Off)
        addr = (uint64_t(w.v[size_t(vaddr.index + 1) * W_ + lane]) << 32) | w.v[size_t(vaddr.index) * W_ + lane];
      else
        addr = ((uint64_t(w.s[saddr.index + 1]) << 32) | w.s[saddr.index]) + w.v[size_t(vaddr.index) * W_ + lane];
      addr += uint64_t(offset);
      uint8_t *ptr = mem_.find(addr, mo.bytes);
      if (!ptr)
        return fault(inst, "'" + pl.text + "' lane " + std::to_string(lane) + " accesses " +
                               std::to_string(mo.bytes) + " bytes at " + hex(addr) + ", out of bounds (" +
                               mem_.describe(addr) + ")");
      transfer(w, pl, mo, store, data, lane, ptr);
    }
    if (!store)
      pl.keys = keys(data);
    w.pending.push_back(std::move(pl));
    return std::nullopt;
  }

  // global_atomic_OP [vdst,] vaddr, vdata, off / ds_OP[_rtn] [vdst,] vaddr,
  // vdata[, vdata1]: each active lane in turn reads the old value, writes
  // the result, and (returning forms) gets the old value once waited for.
  std::optional<Fault> execAtomic(Wave &w, const Parsed &p, const MemOp &mo, long inst, int64_t offset,
                                  PendingLoad pl) {
    const bool returns = atomicReturns(p, mo), lds = mo.kind == MemOp::LdsAtomic;
    const bool cmpswap = mo.atomic == AmdAtomic::Cmpswap;
    const size_t first = returns ? 1 : 0;
    const size_t want = first + (lds ? (cmpswap ? 3 : 2) : 3);
    if (p.ops.size() != want)
      return fault(inst, "unexpected operands in '" + pl.text + "'");
    const Operand &vaddr = p.ops[first];
    // LDS compare-swap: gfx9/10 ds_cmpst takes {cmp, new}, gfx11+ ds_cmpstore {new, cmp}.
    const bool newFirst = !lds || t_.generation >= targets::Generation::GFX11;
    const Operand &data = p.ops[first + 1];
    const unsigned dwords = mo.bytes / 4;
    pl.counter = lds ? Counter::Scalar : returns ? Counter::VmLoad : Counter::VmStore;
    pl.lds = lds;
    const uint64_t ex = exec(w);
    auto vreg = [&](unsigned index, unsigned n, unsigned lane) {
      uint64_t v = 0;
      for (unsigned d = 0; d < n; ++d)
        v |= uint64_t(w.v[size_t(index + d) * W_ + lane]) << (32 * d);
      return v;
    };
    for (unsigned lane = 0; lane < W_; ++lane) {
      if (!((ex >> lane) & 1))
        continue;
      uint8_t *ptr;
      uint64_t addr;
      if (lds) {
        addr = uint64_t(w.v[size_t(vaddr.index) * W_ + lane]) + uint64_t(offset);
        ptr = addr + mo.bytes <= lds_.size() ? &lds_[addr] : nullptr;
      } else {
        addr = vreg(vaddr.index, 2, lane) + uint64_t(offset);
        ptr = mem_.find(addr, mo.bytes);
      }
      if (!ptr)
        return fault(inst, "'" + pl.text + "' lane " + std::to_string(lane) + " accesses " + std::to_string(mo.bytes) +
                               " bytes at " + (lds ? "LDS offset " + std::to_string(addr) : hex(addr)) +
                               ", out of bounds");
      uint64_t value = vreg(data.index, dwords, lane), cmp = 0;
      if (cmpswap) {
        if (lds) {
          const uint64_t other = vreg(p.ops[first + 2].index, dwords, lane);
          cmp = newFirst ? other : value;
          value = newFirst ? value : other;
        } else {
          cmp = vreg(data.index + dwords, dwords, lane);
        }
      }
      const uint64_t old = loadLE(ptr, mo.bytes);
      storeLE(ptr, mo.bytes, amdAtomicResult(mo.atomic, mo.bytes, old, value, cmp));
      if (returns)
        for (unsigned d = 0; d < dwords; ++d)
          pl.writes.push_back({(p.ops[0].index + d) * 64 + lane, static_cast<uint32_t>(old >> (32 * d))});
    }
    if (returns)
      pl.keys = keys(p.ops[0]);
    w.pending.push_back(std::move(pl));
    return std::nullopt;
  }

  // One lane's part of a VMEM access at `ptr`: a store writes the data
  // VGPRs now; a load's values wait in `pl` until a wait retires them.
  void transfer(const Wave &w, PendingLoad &pl, const MemOp &mo, bool store, const Operand &data, unsigned lane,
                uint8_t *ptr) const {
    const unsigned dwords = std::max(1u, mo.bytes / 4), chunk = std::min(4u, mo.bytes);
    for (unsigned d = 0; d < dwords; ++d) {
      if (store) {
        storeLE(ptr + 4 * d, chunk, w.v[size_t(data.index + d) * W_ + lane]);
        continue;
      }
      uint64_t v = loadLE(ptr + 4 * d, chunk);
      if (mo.sign && mo.bytes < 4)
        v = BV::constant(mo.bytes * 8, v).sext(32).value();
      pl.writes.push_back({(data.index + d) * 64 + lane, static_cast<uint32_t>(v)});
    }
  }

  // Scratch is usable: the descriptor enables it and, where the kernel sets
  // FLAT_SCRATCH up itself, it holds flat_scratch_init + the wave's offset.
  std::optional<Fault> scratchReady(const Wave &w, long inst, const std::string &text) const {
    if (w.scratch.empty())
      return fault(inst, "'" + text + "' uses scratch, but the descriptor enables no private segment");
    if (!t_.architected_flat_scratch) {
      const uint64_t fs = t_.generation == targets::Generation::GFX9
                              ? (uint64_t(w.s[kFlatScratch + 1]) << 32 | w.s[kFlatScratch])
                              : w.flatScratchSet;
      if (fs != w.flatScratchExpected)
        return fault(inst, "'" + text + "' uses scratch but FLAT_SCRATCH holds " + hex(fs) + ", not flat_scratch_init + "
                           "the wave's offset (" + hex(w.flatScratchExpected) + ")");
    }
    return std::nullopt;
  }

  // flat_load vdst, vaddr / flat_store vaddr, vdata [offset:N] (Vega ISA 9
  // "Flat"): per lane, an address whose high half is the shared aperture's
  // reaches LDS at its low half, the private aperture's the lane's scratch,
  // anything else global memory. The access counts in both counters.
  std::optional<Fault> execFlat(Wave &w, const Parsed &p, const MemOp &mo, long inst, int64_t offset,
                                PendingLoad pl) {
    const bool store = mo.kind == MemOp::FlatStore;
    if (p.ops.size() != 2 || p.ops[0].kind != Operand::Kind::V || p.ops[1].kind != Operand::Kind::V)
      return fault(inst, "unexpected operands in '" + pl.text + "'");
    const Operand &vaddr = store ? p.ops[0] : p.ops[1];
    const Operand &data = store ? p.ops[1] : p.ops[0];
    pl.counter = store ? Counter::VmStore : Counter::VmLoad;
    pl.flat = true;
    const uint64_t ex = exec(w);
    for (unsigned lane = 0; lane < W_; ++lane) {
      if (!((ex >> lane) & 1))
        continue;
      const uint64_t addr =
          ((uint64_t(w.v[size_t(vaddr.index + 1) * W_ + lane]) << 32) | w.v[size_t(vaddr.index) * W_ + lane]) +
          uint64_t(offset);
      const uint64_t hi = addr >> 32, lo = addr & 0xffffffffu;
      uint8_t *ptr = nullptr;
      std::string where;
      if (hi == kSharedAperture >> 32) {
        ptr = lo + mo.bytes <= lds_.size() ? &lds_[lo] : nullptr;
        where = "LDS offset " + std::to_string(lo) + ", outside the " + std::to_string(lds_.size()) + "-byte allocation";
      } else if (hi == kPrivateAperture >> 32) {
        if (std::optional<Fault> f = scratchReady(w, inst, pl.text))
          return f;
        std::vector<uint8_t> &mem = w.scratch[lane];
        ptr = lo + mo.bytes <= mem.size() ? &mem[lo] : nullptr;
        where = "private offset " + std::to_string(lo) + ", outside the " + std::to_string(mem.size()) +
                "-byte private segment";
      } else {
        ptr = mem_.find(addr, mo.bytes);
        where = hex(addr) + ", out of bounds (" + mem_.describe(addr) + ")";
      }
      if (!ptr)
        return fault(inst, "'" + pl.text + "' lane " + std::to_string(lane) + " accesses " + std::to_string(mo.bytes) +
                               " bytes at " + where);
      transfer(w, pl, mo, store, data, lane, ptr);
    }
    if (!store)
      pl.keys = keys(data);
    w.pending.push_back(std::move(pl));
    return std::nullopt;
  }

  // scratch_load vdst, vaddr, off / scratch_store vaddr, vdata, off [offset:N]
  // (Vega ISA 9 "Scratch"): vaddr + offset is a byte offset in the lane's
  // own private segment. Where the kernel sets FLAT_SCRATCH up itself, it
  // must hold flat_scratch_init + the wave's offset by now.
  std::optional<Fault> execScratch(Wave &w, const Parsed &p, const MemOp &mo, long inst, int64_t offset,
                                   PendingLoad pl) {
    if (std::optional<Fault> f = scratchReady(w, inst, pl.text))
      return f;
    const bool store = mo.kind == MemOp::ScratchStore;
    if (p.ops.size() != 3 || p.ops[0].kind != Operand::Kind::V || p.ops[1].kind != Operand::Kind::V ||
        p.ops[2].kind != Operand::Kind::Off)
      return fault(inst, "unexpected operands in '" + pl.text + "' (the model takes a VGPR offset and no SGPR)");
    const Operand &vaddr = store ? p.ops[0] : p.ops[1];
    const Operand &data = store ? p.ops[1] : p.ops[0];
    const unsigned dwords = std::max(1u, mo.bytes / 4);
    pl.counter = store ? Counter::VmStore : Counter::VmLoad;
    const uint64_t ex = exec(w);
    for (unsigned lane = 0; lane < W_; ++lane) {
      if (!((ex >> lane) & 1))
        continue;
      const int64_t a = int64_t(w.v[size_t(vaddr.index) * W_ + lane]) + offset;
      std::vector<uint8_t> &mem = w.scratch[lane];
      if (a < 0 || uint64_t(a) + mo.bytes > mem.size())
        return fault(inst, "'" + pl.text + "' lane " + std::to_string(lane) + " accesses private offset " +
                               std::to_string(a) + ", outside the " + std::to_string(mem.size()) +
                               "-byte private segment");
      transfer(w, pl, mo, store, data, lane, &mem[size_t(a)]);
    }
    if (!store)
      pl.keys = keys(data);
    w.pending.push_back(std::move(pl));
    return std::nullopt;
  }

  std::optional<Fault> execAlu(Wave &w, const Parsed &p, long inst) {
    std::string key = stripEncoding(p.mnemonic);
    auto has = [&](const char *m) { return std::find(p.modifiers.begin(), p.modifiers.end(), m) != p.modifiers.end(); };
    std::optional<amd::Op> op;
    if (has("clamp")) {
      if (key == t_.mnemonic("v_sub_u32"))
        op = amd::Op::V_SUB_U32_CLAMP;
    } else if (key.size() > 5 && key.compare(key.size() - 5, 5, "_sdwa") == 0) {
      if (key == t_.mnemonic("v_lshrrev_b32") + "_sdwa" && has("src1_sel:WORD_0") &&
          (has("src0_sel:DWORD") || p.modifiers.size() <= 4) && !has("dst_sel:WORD_1"))
        op = amd::Op::V_LSHRREV_B32_SDWA_W0;
    } else if (auto it = byMnemonic_.find(key); it != byMnemonic_.end()) {
      op = it->second;
      if (*op == amd::Op::V_SUB_U32_CLAMP) // shares the VOP3 name; without clamp it is the plain subtract
        op = amd::Op::V_SUB_U32;
    }
    for (const std::string &m : p.modifiers)
      if (!has("clamp") && op && *op != amd::Op::V_LSHRREV_B32_SDWA_W0)
        return fault(inst, "modifier '" + m + "' in '" + k_.code[size_t(inst)].text + "' is not modelled");
    if (!op)
      return fault(inst, "unknown instruction '" + k_.code[size_t(inst)].text +
                             "': the emulator does not model it (refusing to guess its effect)");
    const amd::OpDef &def = amd::opDef(*op);
    const size_t ndst = def.writesVcc() ? 2 : 1;
    if (p.ops.size() != ndst + def.srcs.size())
      return fault(inst, "'" + k_.code[size_t(inst)].text + "' has " + std::to_string(p.ops.size()) +
                             " operands; the model of " + def.name + " takes " +
                             std::to_string(ndst + def.srcs.size()));
    for (const Operand &o : p.ops) {
      if (o.kind == Operand::Kind::Other || o.kind == Operand::Kind::Off)
        return fault(inst, "operand '" + o.text + "' of '" + k_.code[size_t(inst)].text + "' is not modelled");
      if (std::optional<Fault> f = checkRange(o, inst))
        return f;
    }
    amd::EvalContext ec;
    ec.high16_zeroed = t_.generation <= targets::Generation::GFX9;
    uint32_t junk = 0x2545f491u;
    ec.unspecified = [&junk](unsigned width) {
      junk = junk * 1664525u + 1013904223u;
      return BV::constant(width, junk);
    };
    const Operand &dst = p.ops[0];
    const bool scalar = def.encoding == amd::Encoding::SOP1 || def.encoding == amd::Encoding::SOP2;
    if (scalar && def.dst != amd::Slot::Mask)
      return execScalarValue(w, p, def, ec, inst);
    const uint64_t ex = exec(w);
    // Evaluate every lane from the old state first, then write: a VALU
    // instruction reads all its sources before writing (in-place is fine).
    std::vector<std::optional<BV>> results(W_);
    uint64_t carry = 0;
    for (unsigned lane = 0; lane < W_; ++lane) {
      const bool active = scalar || ((ex >> lane) & 1);
      if (!active && def.dst != amd::Slot::Mask && !def.carryOut)
        continue;
      ec.exec = BV::constant(1, scalar ? 1 : (ex >> lane) & 1);
      ec.lane = lane;
      std::vector<BV> srcs;
      for (size_t i = 0; i < def.srcs.size(); ++i)
        srcs.push_back(laneValue(w, p.ops[ndst + i], def.srcs[i], lane));
      BV r = def.semantics(srcs, ec);
      if (def.carryOut) {
        auto [value, c] = amd::splitCarry(r);
        carry |= c.value() << lane;
        r = value;
      }
      if (active || def.dst == amd::Slot::Mask)
        results[lane] = r;
    }
    if (def.dst == amd::Slot::Mask) {
      uint64_t m = 0;
      for (unsigned lane = 0; lane < W_; ++lane)
        if (results[lane])
          m |= results[lane]->value() << lane;
      if (dst.kind != Operand::Kind::S && dst.kind != Operand::Kind::Null)
        return fault(inst, "mask destination '" + dst.text + "' is not an SGPR");
      if (dst.kind == Operand::Kind::S)
        setMask(w, dst.index, m);
      if (scalar)
        w.scc = m != 0;
    } else {
      if (dst.kind != Operand::Kind::V)
        return fault(inst, "destination '" + dst.text + "' is not a VGPR");
      for (unsigned lane = 0; lane < W_; ++lane) {
        if (!results[lane])
          continue;
        const uint64_t v = results[lane]->value();
        w.v[size_t(dst.index) * W_ + lane] = static_cast<uint32_t>(v);
        if (def.dst == amd::Slot::V64)
          w.v[size_t(dst.index + 1) * W_ + lane] = static_cast<uint32_t>(v >> 32);
      }
    }
    if (def.carryOut && p.ops[1].kind == Operand::Kind::S)
      setMask(w, p.ops[1].index, carry);
    if (def.clobbersVcc && p.ops[1].kind == Operand::Kind::S) // a value nothing may rely on
      setMask(w, p.ops[1].index, (uint64_t(junk) << 32 | junk) & (W_ == 64 ? ~0ull : 0xffffffffull));
    return std::nullopt;
  }

  // A scalar ALU op on values (SOP1/SOP2): one result into SGPRs, and SCC
  // as Vega ISA 12.2/12.3 define it for the ops the translation emits.
  std::optional<Fault> execScalarValue(Wave &w, const Parsed &p, const amd::OpDef &def, amd::EvalContext &ec,
                                       long inst) {
    const Operand &dst = p.ops[0];
    if (dst.kind != Operand::Kind::S || dst.count != (def.dst == amd::Slot::V64 ? 2u : 1u))
      return fault(inst, "destination '" + dst.text + "' of a scalar instruction is not an SGPR of its width");
    std::vector<BV> srcs;
    for (size_t i = 0; i < def.srcs.size(); ++i) {
      const Operand &o = p.ops[1 + i];
      if (o.kind == Operand::Kind::V)
        return fault(inst, "scalar instruction '" + k_.code[size_t(inst)].text + "' reads a VGPR");
      srcs.push_back(laneValue(w, o, def.srcs[i], 0));
    }
    ec.exec = BV::constant(1, 1);
    const uint64_t r = def.semantics(srcs, ec).value();
    w.s[dst.index] = static_cast<uint32_t>(r);
    if (def.dst == amd::Slot::V64)
      w.s[dst.index + 1] = static_cast<uint32_t>(r >> 32);
    const std::string m = stripEncoding(p.mnemonic);
    const uint64_t a = srcs[0].value(), b = srcs.size() > 1 ? srcs[1].value() : 0;
    auto starts = [&](const char *prefix) { return m.rfind(prefix, 0) == 0; };
    auto sgn = [](uint64_t x) { return static_cast<int32_t>(static_cast<uint32_t>(x)); };
    if (starts("s_and_") || starts("s_or_") || starts("s_xor_") || starts("s_not_") || starts("s_lshl_") ||
        starts("s_lshr_") || starts("s_ashr_"))
      w.scc = r != 0;
    else if (starts("s_add_"))
      w.scc = (((a ^ r) & (b ^ r)) >> 31) & 1;
    else if (starts("s_sub_"))
      w.scc = (((a ^ b) & (a ^ r)) >> 31) & 1;
    else if (m == "s_min_u32")
      w.scc = uint32_t(a) < uint32_t(b);
    else if (m == "s_max_u32")
      w.scc = uint32_t(a) > uint32_t(b);
    else if (m == "s_min_i32")
      w.scc = sgn(a) < sgn(b);
    else if (m == "s_max_i32")
      w.scc = sgn(a) > sgn(b);
    return std::nullopt; // s_mov, s_mul*: SCC unchanged
  }

  std::optional<Fault> execScalarCompare(Wave &w, const Parsed &p, long inst) {
    static const char *ops[] = {"eq", "lg", "gt", "ge", "lt", "le"};
    const std::string &m = p.mnemonic; // s_cmp_<op>_<u32|i32|u64>
    const size_t us = m.rfind('_');
    const std::string op = m.substr(6, us - 6), ty = m.substr(us + 1);
    if (p.ops.size() != 2 || (ty != "u32" && ty != "i32" && ty != "u64") ||
        std::find(std::begin(ops), std::end(ops), op) == std::end(ops) || (ty == "u64" && op != "eq" && op != "lg"))
      return fault(inst, "unknown instruction '" + k_.code[size_t(inst)].text + "': the emulator does not model it");
    auto value = [&](const Operand &o) -> uint64_t {
      if (o.kind == Operand::Kind::S)
        return ty == "u64" ? (uint64_t(w.s[o.index + 1]) << 32) | w.s[o.index] : w.s[o.index];
      return ty == "u64" ? o.imm : (o.imm & 0xffffffffu);
    };
    uint64_t a = value(p.ops[0]), b = value(p.ops[1]);
    if (ty == "i32") { // order signed values by flipping the sign bit
      a ^= 0x80000000u;
      b ^= 0x80000000u;
    }
    w.scc = op == "eq" ? a == b : op == "lg" ? a != b : op == "gt" ? a > b : op == "ge" ? a >= b : op == "lt" ? a < b : a <= b;
    return std::nullopt;
  }

  std::optional<Fault> execDual(Wave &w, long inst) {
    // v_dual_cndmask_b32 X :: v_dual_cndmask_b32 Y (gfx11+ VOPD): both halves
    // read their sources (and VCC) before either writes.
    const std::string &text = k_.code[size_t(inst)].text;
    const size_t sep = text.find(" :: ");
    if (sep == std::string::npos)
      return fault(inst, "cannot read the dual instruction '" + text + "'");
    Parsed x = parseText(text.substr(0, sep), W_), y = parseText(text.substr(sep + 4), W_);
    if (x.mnemonic != "v_dual_cndmask_b32" || y.mnemonic != "v_dual_cndmask_b32" || x.ops.size() != 3 ||
        y.ops.size() != 3)
      return fault(inst, "unknown dual instruction '" + text + "': only v_dual_cndmask_b32 pairs are modelled");
    const amd::OpDef &def = amd::opDef(amd::Op::V_CNDMASK_B32);
    const uint64_t ex = exec(w);
    Operand vcc;
    vcc.kind = Operand::Kind::S;
    vcc.index = kVcc;
    std::vector<std::pair<unsigned, uint32_t>> writes;
    amd::EvalContext ec;
    for (const Parsed *h : {&x, &y}) {
      for (const Operand &o : h->ops)
        if (std::optional<Fault> f = checkRange(o, inst))
          return f;
      for (unsigned lane = 0; lane < W_; ++lane) {
        if (!((ex >> lane) & 1))
          continue;
        BV r = def.semantics({laneValue(w, h->ops[1], amd::Slot::V32, lane), laneValue(w, h->ops[2], amd::Slot::V32, lane),
                              laneValue(w, vcc, amd::Slot::Mask, lane)},
                             ec);
        writes.push_back({h->ops[0].index * W_ + lane, static_cast<uint32_t>(r.value())});
      }
    }
    for (auto [at, v] : writes)
      w.v[at] = v;
    return std::nullopt;
  }

  void trace(const Wave &w, long inst) {
    if (!o_.trace)
      return;
    const uint64_t first = blockLinear_ * l_.block.count() + w.firstThread;
    if (o_.traceThread < first || o_.traceThread >= first + W_)
      return;
    TraceRecord r;
    r.instruction = static_cast<unsigned>(inst);
    r.lane = static_cast<unsigned>(o_.traceThread - first);
    for (unsigned i = 0; i < nv_; ++i)
      r.vgprs.push_back(w.v[size_t(i) * W_ + r.lane]);
    r.sgprs.assign(std::begin(w.s), std::end(w.s));
    o_.trace->push_back(std::move(r));
  }

  std::optional<Fault> runWave(Wave &w) {
    while (!w.done && !w.atBarrier) {
      if (w.pc >= k_.code.size())
        return fault(-1, "execution ran past the end of the code without s_endpgm");
      if (++w.steps > o_.stepLimit)
        return fault(long(w.pc), "a wave executed " + std::to_string(o_.stepLimit) +
                                     " instructions without finishing (an endless loop?)");
      const long inst = static_cast<long>(w.pc);
      const Parsed &p = parsed_[w.pc];
      const MemOp *mo = memOp(p.mnemonic);
      const targets::InstFacts f = facts(p, mo);
      if (std::optional<Fault> fl = checkHazards(w, f, inst))
        return fl;
      if (std::optional<Fault> fl = checkPending(w, p, inst))
        return fl;
      for (const Operand &o : p.ops)
        if (std::optional<Fault> fl = checkRange(o, inst))
          return fl;
      size_t next = w.pc + 1;
      unsigned waitStates = 1;
      const std::string &m = p.mnemonic;
      std::optional<Fault> fl;
      if (mo) {
        fl = execMemory(w, p, *mo, inst);
      } else if (m == "s_endpgm") {
        w.done = true;
      } else if (m == "s_nop") {
        waitStates = static_cast<unsigned>(p.ops.empty() ? 1 : (p.ops[0].imm & 0xf) + 1);
      } else if (m == "v_nop") {
        // a VALU instruction with no effect (it counts for VALU-mitigated hazards)
      } else if (m == "s_delay_alu") {
        // a scheduling hint (RDNA3 ISA "s_delay_alu"): no architectural effect
      } else if (cacheMaintenance_.count(m)) {
        // write-backs and invalidations: the model's memory is one coherent
        // level, so they change nothing here (tests check they are emitted)
      } else if (m.rfind("s_wait", 0) == 0) {
        fl = execWait(w, p, inst);
      } else if (m == "s_barrier" || m == "s_barrier_wait") {
        w.atBarrier = true;
      } else if (m == "s_barrier_signal") {
        // gfx12 splits the barrier; the wait is where waves meet
      } else if (m == "s_branch" || m.rfind("s_cbranch_", 0) == 0) {
        // SOPP branch: target = next PC + 4 * simm16 (Vega ISA 4.2).
        const int16_t rel = static_cast<int16_t>(p.ops.empty() ? 0 : p.ops[0].imm);
        bool taken = m == "s_branch";
        const std::string cond = m.size() > 10 ? m.substr(10) : "";
        if (cond == "scc0") taken = !w.scc;
        else if (cond == "scc1") taken = w.scc;
        else if (cond == "vccz") taken = mask(w, kVcc) == 0;
        else if (cond == "vccnz") taken = mask(w, kVcc) != 0;
        else if (cond == "execz") taken = exec(w) == 0;
        else if (cond == "execnz") taken = exec(w) != 0;
        else if (m != "s_branch")
          return fault(inst, "unknown branch '" + m + "'");
        if (taken) {
          const int64_t target = int64_t(k_.code[w.pc].offset + k_.code[w.pc].size) + 4 * int64_t(rel);
          auto it = offsetIndex_.find(static_cast<uint64_t>(target));
          if (it == offsetIndex_.end())
            return fault(inst, "branch target " + std::to_string(target) + " is not an instruction boundary");
          next = it->second;
        }
      } else if (m == "s_mov_b64" && W_ == 32) {
        // (wave64 runs it as the mask move) a 64-bit SGPR pair copy, as the
        // prologue reads the aperture registers.
        if (p.ops.size() != 2 || p.ops[0].kind != Operand::Kind::S || p.ops[0].count != 2 ||
            p.ops[1].kind != Operand::Kind::S || p.ops[1].count != 2)
          return fault(inst, "unexpected operands in '" + k_.code[w.pc].text + "'");
        w.s[p.ops[0].index] = w.s[p.ops[1].index];
        w.s[p.ops[0].index + 1] = w.s[p.ops[1].index + 1];
      } else if (m == "s_getpc_b64") {
        // The address of the next instruction (Vega ISA 12.3 SOP1).
        if (p.ops.size() != 1 || p.ops[0].kind != Operand::Kind::S || p.ops[0].count != 2)
          return fault(inst, "unexpected operands in '" + k_.code[w.pc].text + "'");
        if (!k_.linked)
          return fault(inst, "s_getpc_b64 in an unlinked object: PC-relative addresses are only meaningful in a "
                             "linked code object (.hsaco)");
        const uint64_t pc = l_.imageAddress + k_.codeAddress + k_.code[w.pc].offset + k_.code[w.pc].size;
        w.s[p.ops[0].index] = static_cast<uint32_t>(pc);
        w.s[p.ops[0].index + 1] = static_cast<uint32_t>(pc >> 32);
      } else if (m == "s_add_u32" || m == "s_addc_u32" || m == "s_add_co_u32" || m == "s_add_co_ci_u32") {
        // (gfx12 spells them s_add_co_u32 / s_add_co_ci_u32)
        // SOP2: D = S0 + S1 (+ SCC), SCC = the carry out.
        if (p.ops.size() != 3 || p.ops[0].kind != Operand::Kind::S)
          return fault(inst, "unexpected operands in '" + k_.code[w.pc].text + "'");
        auto val = [&](const Operand &o) -> uint64_t {
          return o.kind == Operand::Kind::S ? w.s[o.index] : (o.imm & 0xffffffffu);
        };
        const bool carryIn = m == "s_addc_u32" || m == "s_add_co_ci_u32";
        const uint64_t sum = val(p.ops[1]) + val(p.ops[2]) + (carryIn && w.scc ? 1 : 0);
        w.s[p.ops[0].index] = static_cast<uint32_t>(sum);
        w.scc = (sum >> 32) != 0;
      } else if (m == "s_cselect_b32" || m == "s_cselect_b64") {
        // SOP2 (Vega ISA 12.2): D = SCC ? S0 : S1, SCC unchanged.
        const unsigned words = m == "s_cselect_b64" ? 2 : 1;
        if (p.ops.size() != 3 || p.ops[0].kind != Operand::Kind::S || p.ops[0].count != words)
          return fault(inst, "unexpected operands in '" + k_.code[w.pc].text + "'");
        const Operand &pick = w.scc ? p.ops[1] : p.ops[2];
        for (unsigned i = 0; i < words; ++i) {
          uint32_t v = 0;
          if (pick.kind == Operand::Kind::S)
            v = w.s[pick.index + i];
          else if (pick.kind == Operand::Kind::Imm)
            v = static_cast<uint32_t>(pick.imm >> (32 * i));
          else
            return fault(inst, "unexpected operands in '" + k_.code[w.pc].text + "'");
          w.s[p.ops[0].index + i] = v;
        }
      } else if (m == "s_setreg_b32") {
        // gfx10 writes FLAT_SCRATCH through the hardware registers
        // HW_REG_FLAT_SCR_LO/HI (RDNA ISA "S_SETREG_B32"); nothing else is modelled.
        const std::string &what = p.ops.empty() ? std::string() : p.ops[0].text;
        if (p.ops.size() != 2 || p.ops[1].kind != Operand::Kind::S || what.find("FLAT_SCR_") == std::string::npos)
          return fault(inst, "unknown instruction '" + k_.code[w.pc].text + "': the emulator does not model it");
        const uint64_t v = w.s[p.ops[1].index];
        if (what.find("FLAT_SCR_LO") != std::string::npos)
          w.flatScratchSet = (w.flatScratchSet & ~0xffffffffull) | v;
        else
          w.flatScratchSet = (w.flatScratchSet & 0xffffffffull) | (v << 32);
      } else if (m.rfind("s_cmp_", 0) == 0) {
        // SOPC (Vega ISA 12.4): SCC = S0 op S1 on 32 or 64 bits.
        fl = execScalarCompare(w, p, inst);
      } else if (m.rfind("v_dual_", 0) == 0) {
        fl = execDual(w, inst);
      } else {
        fl = execAlu(w, p, inst);
      }
      if (fl)
        return fl;
      w.history.push_back({f, waitStates, inst});
      if (w.history.size() > 16)
        w.history.pop_front();
      trace(w, inst);
      w.pc = next;
    }
    return std::nullopt;
  }

  const LoadedKernel &k_;
  const targets::TargetInfo &t_;
  const Launch &l_;
  GlobalMemory &mem_;
  const Options &o_;
  const unsigned W_;
  const unsigned nv_;
  std::map<std::string, amd::Op> byMnemonic_;
  std::set<std::string> cacheMaintenance_; // the op table's write-back and invalidation mnemonics
  std::vector<Parsed> parsed_;
  std::map<uint64_t, size_t> offsetIndex_;
  std::vector<uint8_t> lds_;
  uint64_t blockLinear_ = 0;
};

} // namespace

std::optional<Fault> run(const LoadedKernel &k, const targets::TargetInfo &t, const Launch &launch,
                         GlobalMemory &memory, const Options &options) {
  return Emulator(k, t, launch, memory, options).run();
}

std::vector<uint8_t> dispatchPacket(const Dim3 &grid, const Dim3 &block, uint64_t kernargAddress) {
  // hsa_kernel_dispatch_packet_t: header u16, setup u16 (dimensions),
  // workgroup_size_x/y/z u16, reserved u16, grid_size_x/y/z u32 (in
  // work-items), private/group segment sizes, kernel_object, kernarg_address.
  std::vector<uint8_t> p(64, 0);
  storeLE(&p[2], 2, 3);
  storeLE(&p[4], 2, block.x);
  storeLE(&p[6], 2, block.y);
  storeLE(&p[8], 2, block.z);
  storeLE(&p[12], 4, uint64_t(grid.x) * block.x);
  storeLE(&p[16], 4, uint64_t(grid.y) * block.y);
  storeLE(&p[20], 4, uint64_t(grid.z) * block.z);
  storeLE(&p[40], 8, kernargAddress);
  return p;
}

} // namespace p2a::emu
