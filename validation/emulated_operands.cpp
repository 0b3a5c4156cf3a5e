// Reading LLVM's printed AMDGPU instructions back into operands, and the
// table of memory instructions the emulator runs (emulator_parts.hpp).
#include "validation/emulator_parts.hpp"

#include <cctype>
#include <cstdio>

namespace p2a::emu::detail {

std::string hex(uint64_t v) {
  char b[32];
  std::snprintf(b, sizeof b, "0x%llx", static_cast<unsigned long long>(v));
  return b;
}

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
  int depth = 0; // (a comma inside brackets, as in op_sel:[0,1], separates nothing)
  for (char c : p.rest) {
    depth += c == '[' ? 1 : c == ']' ? -1 : 0;
    if (c == ',' && depth == 0) {
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

namespace {

const MemOp kMemOps[] = {
    {"global_load_ubyte", MemOp::GlobalLoad, 1, false},   {"global_load_sbyte", MemOp::GlobalLoad, 1, true},
    {"global_load_ushort", MemOp::GlobalLoad, 2, false},  {"global_load_sshort", MemOp::GlobalLoad, 2, true},
    {"global_load_dword", MemOp::GlobalLoad, 4, false},   {"global_load_dwordx2", MemOp::GlobalLoad, 8, false},
    {"global_load_dwordx3", MemOp::GlobalLoad, 12, false}, {"global_store_dwordx3", MemOp::GlobalStore, 12, false},
    {"scratch_load_dwordx3", MemOp::ScratchLoad, 12, false}, {"scratch_store_dwordx3", MemOp::ScratchStore, 12, false},
    {"scratch_load_dwordx4", MemOp::ScratchLoad, 16, false}, {"scratch_store_dwordx4", MemOp::ScratchStore, 16, false},
    {"flat_load_dwordx3", MemOp::FlatLoad, 12, false},    {"flat_store_dwordx3", MemOp::FlatStore, 12, false},
    {"flat_load_dwordx4", MemOp::FlatLoad, 16, false},    {"flat_store_dwordx4", MemOp::FlatStore, 16, false},
    {"global_load_dwordx4", MemOp::GlobalLoad, 16, false}, {"global_store_byte", MemOp::GlobalStore, 1, false},
    {"global_store_short", MemOp::GlobalStore, 2, false}, {"global_store_dword", MemOp::GlobalStore, 4, false},
    {"global_store_dwordx2", MemOp::GlobalStore, 8, false}, {"global_store_dwordx4", MemOp::GlobalStore, 16, false},
    {"s_load_dword", MemOp::ScalarLoad, 4, false},        {"s_load_dwordx2", MemOp::ScalarLoad, 8, false},
    {"s_load_dwordx3", MemOp::ScalarLoad, 12, false},     {"s_load_dwordx4", MemOp::ScalarLoad, 16, false},     {"s_load_dwordx8", MemOp::ScalarLoad, 32, false},
    {"s_load_dwordx16", MemOp::ScalarLoad, 64, false},    {"ds_read_u8", MemOp::LdsLoad, 1, false},
    {"ds_read_i8", MemOp::LdsLoad, 1, true},              {"ds_read_u16", MemOp::LdsLoad, 2, false},
    {"ds_read_i16", MemOp::LdsLoad, 2, true},             {"ds_read_b32", MemOp::LdsLoad, 4, false},
    {"ds_read_b64", MemOp::LdsLoad, 8, false},            {"ds_write_b8", MemOp::LdsStore, 1, false},
    {"ds_write_b16", MemOp::LdsStore, 2, false},          {"ds_write_b32", MemOp::LdsStore, 4, false},
    {"ds_write_b64", MemOp::LdsStore, 8, false},          {"ds_bpermute_b32", MemOp::LdsPermute, 4, false},
    {"buffer_load_ubyte", MemOp::ScratchLoad, 1, false},  {"buffer_load_sbyte", MemOp::ScratchLoad, 1, true},
    {"buffer_load_ushort", MemOp::ScratchLoad, 2, false}, {"buffer_load_sshort", MemOp::ScratchLoad, 2, true},
    {"buffer_load_dword", MemOp::ScratchLoad, 4, false},  {"buffer_load_dwordx2", MemOp::ScratchLoad, 8, false},
    {"buffer_load_dwordx3", MemOp::ScratchLoad, 12, false}, {"buffer_load_dwordx4", MemOp::ScratchLoad, 16, false},
    {"buffer_store_byte", MemOp::ScratchStore, 1, false}, {"buffer_store_short", MemOp::ScratchStore, 2, false},
    {"buffer_store_dword", MemOp::ScratchStore, 4, false}, {"buffer_store_dwordx2", MemOp::ScratchStore, 8, false},
    {"buffer_store_dwordx3", MemOp::ScratchStore, 12, false}, {"buffer_store_dwordx4", MemOp::ScratchStore, 16, false},
    {"ds_read_b96", MemOp::LdsLoad, 12, false},           {"ds_read_b128", MemOp::LdsLoad, 16, false},
    {"ds_write_b96", MemOp::LdsStore, 12, false},         {"ds_write_b128", MemOp::LdsStore, 16, false},
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
    {"global_atomic_cmpswap_x2", MemOp::GlobalAtomic, 8, false, AmdAtomic::Cmpswap},
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
    {"ds_add_rtn_u64", MemOp::LdsAtomic, 8, false, AmdAtomic::Add},
    {"ds_add_u64", MemOp::LdsAtomic, 8, false, AmdAtomic::Add},
    {"ds_min_rtn_u64", MemOp::LdsAtomic, 8, false, AmdAtomic::Umin},
    {"ds_min_u64", MemOp::LdsAtomic, 8, false, AmdAtomic::Umin},
    {"ds_min_rtn_i64", MemOp::LdsAtomic, 8, false, AmdAtomic::Smin},
    {"ds_min_i64", MemOp::LdsAtomic, 8, false, AmdAtomic::Smin},
    {"ds_max_rtn_u64", MemOp::LdsAtomic, 8, false, AmdAtomic::Umax},
    {"ds_max_u64", MemOp::LdsAtomic, 8, false, AmdAtomic::Umax},
    {"ds_max_rtn_i64", MemOp::LdsAtomic, 8, false, AmdAtomic::Smax},
    {"ds_max_i64", MemOp::LdsAtomic, 8, false, AmdAtomic::Smax},
    {"ds_and_rtn_b64", MemOp::LdsAtomic, 8, false, AmdAtomic::And},
    {"ds_and_b64", MemOp::LdsAtomic, 8, false, AmdAtomic::And},
    {"ds_or_rtn_b64", MemOp::LdsAtomic, 8, false, AmdAtomic::Or},
    {"ds_or_b64", MemOp::LdsAtomic, 8, false, AmdAtomic::Or},
    {"ds_xor_rtn_b64", MemOp::LdsAtomic, 8, false, AmdAtomic::Xor},
    {"ds_xor_b64", MemOp::LdsAtomic, 8, false, AmdAtomic::Xor},
    {"ds_wrxchg_rtn_b64", MemOp::LdsAtomic, 8, false, AmdAtomic::Swap},
    {"ds_cmpst_rtn_b64", MemOp::LdsAtomic, 8, false, AmdAtomic::Cmpswap},
    {"ds_cmpstore_rtn_b64", MemOp::LdsAtomic, 8, false, AmdAtomic::Cmpswap}, // gfx11+: {new, cmp}
};

} // namespace

std::span<const MemOp> memOps() {
  // The FLAT atomics: the global ones under their flat_ names.
  static const std::vector<MemOp> all = [] {
    static std::vector<std::string> names;
    names.reserve(std::size(kMemOps));
    std::vector<MemOp> v(std::begin(kMemOps), std::end(kMemOps));
    for (const MemOp &m : kMemOps)
      if (m.kind == MemOp::GlobalAtomic) {
        names.push_back("flat_" + std::string(m.gfx9Name + 7)); // (reserved: the pointers stay valid)
        MemOp f = m;
        f.gfx9Name = names.back().c_str();
        f.kind = MemOp::FlatAtomic;
        v.push_back(f);
      }
    return v;
  }();
  return all;
}

} // namespace p2a::emu::detail
