// Tests for the PTX decoder (ptx/ptx_decoder.cpp): every accepted form
// of the Logic & Shift family (PTX ISA §9.7.8) decodes to the right Form and
// operands, and every error the decoder and the register typing can report
// comes with its exact text and source position.
//
// Namespaces: the grammar is ::ptx, the typed IR is p2a::ptx (aliased `ir`).
#include "grammar/ast_blocks.hpp"
#include "grammar/parser.hpp"
#include "ptx/ptx_decoder.hpp"
#include "ptx/ptx_ir.hpp"
#include "driver/translate.hpp"

#include <doctest/doctest.h>

#include <cstdint>
#include <cstdio>
#include <map>
#include <stdexcept>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace {

namespace ast = ::ptx::ast;
namespace ir = ::p2a::ptx;
using OpKind = ir::Operand::Kind;

std::string describe(const p2a::Diagnostics &diags) {
  std::string s;
  for (const p2a::Diagnostic &d : diags)
    s += std::to_string(d.loc.line) + ":" + std::to_string(d.loc.col) + ": " + d.message + "\n";
  return s;
}

std::string describeSyntax(const ::ptx::ParseResult &r) {
  std::string s;
  for (const ::ptx::SyntaxError &e : r.errors)
    s += std::to_string(e.loc.line) + ":" + std::to_string(e.loc.col) + ": " + e.message + "\n";
  return s;
}

// A snippet run through the decoder as the translator does it: `.reg`
// declarations first, then each instruction decoded and its registers typed.
struct Decoded {
  ::ptx::ParseResult parse;
  std::vector<std::optional<ir::Instruction>> insts; // one per instruction statement
  std::vector<bool> typed;                           // typeRegisters result (false when not decoded)
  ir::RegisterTypes types;
  p2a::Diagnostics diags;
};

Decoded decodeSnippet(const std::string &text) {
  Decoded d;
  d.parse = ::ptx::parseSnippet(text);
  INFO("source: " << text);
  INFO("syntax errors: " << describeSyntax(d.parse));
  REQUIRE(d.parse.ok());
  REQUIRE(d.parse.module.functions.size() == 1);
  REQUIRE(d.parse.module.functions[0].body.has_value());
  const std::vector<const ast::Statement *> stmts = ::ptx::ast::flatten(*d.parse.module.functions[0].body);
  for (const ast::Statement *s : stmts)
    if (const ast::Declaration *decl = std::get_if<ast::Declaration>(s))
      ir::collectRegisterDeclaration(*decl, d.types, d.diags);
  for (const ast::Statement *s : stmts) {
    const ast::Instruction *in = std::get_if<ast::Instruction>(s);
    if (!in)
      continue;
    std::optional<ir::Instruction> inst = ir::decodeInstruction(*in, d.diags);
    d.typed.push_back(inst ? ir::typeRegisters(*inst, d.types, d.diags) : false);
    d.insts.push_back(std::move(inst));
  }
  return d;
}

// A snippet with exactly one instruction that must decode and type cleanly.
ir::Instruction decodeOk(const std::string &text) {
  Decoded d = decodeSnippet(text);
  INFO("source: " << text);
  INFO("diagnostics: " << describe(d.diags));
  REQUIRE(d.insts.size() == 1);
  REQUIRE(d.insts[0].has_value());
  CHECK(d.typed[0]);
  CHECK(d.diags.empty());
  return *d.insts[0];
}

struct Expected {
  unsigned line, col;
  std::string message;
};

// The snippet's diagnostics, exactly and in order.
void expectErrors(const std::string &text, const std::vector<Expected> &want) {
  Decoded d = decodeSnippet(text);
  INFO("source: " << text);
  INFO("got: " << describe(d.diags));
  REQUIRE(d.diags.size() == want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    CHECK(d.diags[i].severity == p2a::Diagnostic::Severity::Error);
    CHECK(d.diags[i].message == want[i].message);
    CHECK(d.diags[i].loc.line == want[i].line);
    CHECK(d.diags[i].loc.col == want[i].col);
  }
}

void expectError(const std::string &text, unsigned line, unsigned col, const std::string &message) {
  expectErrors(text, {{line, col, message}});
}

// Operand summaries: "r:%r1", "i:0x...", "_".
std::string operandText(const ir::Operand &o) {
  switch (o.kind) {
  case OpKind::Register: return "r:" + o.reg;
  case OpKind::Sink: return "_";
  case OpKind::Immediate: {
    char buf[32];
    std::snprintf(buf, sizeof buf, "i:0x%llx", static_cast<unsigned long long>(o.imm));
    return buf;
  }
  }
  return "?";
}

std::vector<std::string> operandsText(const std::vector<ir::Operand> &ops) {
  std::vector<std::string> v;
  for (const ir::Operand &o : ops)
    v.push_back(operandText(o));
  return v;
}

using Strings = std::vector<std::string>;

// Register operand for a source/destination of the given width.
std::string regFor(unsigned width, unsigned i) {
  const char *p = width == 1 ? "%p" : width == 16 ? "%rs" : width == 64 ? "%rd" : width == 8 ? "%rb" : "%r";
  return p + std::to_string(i);
}

// The opcodes of PTX ISA §9.7.8 (allForms() may hold neighbours too).
bool isLogicShift(ir::Opcode op) {
  switch (op) {
  case ir::Opcode::And:
  case ir::Opcode::Or:
  case ir::Opcode::Xor:
  case ir::Opcode::Not:
  case ir::Opcode::Cnot:
  case ir::Opcode::Lop3:
  case ir::Opcode::Shf:
  case ir::Opcode::Shl:
  case ir::Opcode::Shr: return true;
  default: return false;
  }
}

} // namespace

TEST_SUITE("decoder") {

TEST_CASE("the Logic & Shift family has exactly the PTX ISA forms") {
  // PTX ISA §9.7.8: and/or/xor/not .pred .b16 .b32 .b64; cnot .b16 .b32 .b64;
  // lop3[.and|.or].b32; shf.{l,r}.{wrap,clamp}.b32; shl .b16 .b32 .b64;
  // shr .b/.u/.s 16 32 64.
  std::vector<std::string> want;
  for (const char *op : {"and", "or", "xor", "not"})
    for (const char *ty : {"pred", "b16", "b32", "b64"})
      want.push_back(std::string(op) + "." + ty);
  for (const char *ty : {"b16", "b32", "b64"})
    want.push_back(std::string("cnot.") + ty);
  for (const char *n : {"lop3.b32", "lop3.and.b32", "lop3.or.b32", "shf.l.wrap.b32", "shf.l.clamp.b32",
                        "shf.r.wrap.b32", "shf.r.clamp.b32"})
    want.push_back(n);
  for (const char *ty : {"b16", "b32", "b64"})
    want.push_back(std::string("shl.") + ty);
  for (const char *cls : {"b", "u", "s"})
    for (const char *w : {"16", "32", "64"})
      want.push_back(std::string("shr.") + cls + w);
  std::vector<std::string> have;
  for (const ir::Form &f : ir::allForms())
    if (isLogicShift(f.opcode))
      have.push_back(f.name());
  CHECK(have == want);
  for (const std::string &n : want) {
    INFO(n);
    REQUIRE(ir::formByName(n).has_value());
    CHECK(ir::formByName(n)->name() == n);
  }
  CHECK_FALSE(ir::formByName("shl.u32").has_value());
  CHECK_FALSE(ir::formByName("shf.l.wrap.b64").has_value());
  CHECK_FALSE(ir::formByName("cnot.pred").has_value());
}

TEST_CASE("every form of the family decodes to itself with register operands") {
  // Built from allForms(): the operand count and widths come from the form,
  // so this also checks numDsts/numSrcs/srcWidth agree with the decoder.
  for (const ir::Form &f : ir::allForms()) {
    if (!isLogicShift(f.opcode))
      continue;
    const std::string name = f.name();
    INFO("form: " << name);
    std::string src = name + " ";
    const bool pair = f.opcode == ir::Opcode::Lop3 && f.boolop != ir::BoolOp::None;
    src += pair ? "%r0|%p0" : regFor(f.dstWidth(0), 0);
    for (unsigned i = 0; i < f.numSrcs(); ++i)
      src += ", " + (f.opcode == ir::Opcode::Lop3 && i == 3 ? std::string("0x96") : regFor(f.srcWidth(i), i + 1));
    src += ";";
    ir::Instruction inst = decodeOk(src);
    CHECK(inst.form.name() == name);
    CHECK(inst.form == f);
    CHECK(inst.form.opcode == f.opcode);
    CHECK(inst.form.type == f.type);
    CHECK(inst.form.width == f.width);
    CHECK(inst.dsts.size() == f.numDsts());
    CHECK(inst.srcs.size() == f.numSrcs());
    CHECK(inst.text.str() == src.substr(0, src.size() - 1));
    CHECK(inst.loc.line == 1);
    CHECK(inst.loc.col == 1);
    CHECK(ir::formByName(name).has_value());
  }
}

TEST_CASE("accepted forms: names, operand kinds and values") {
  struct Case {
    const char *source;
    const char *name;
    Strings dsts, srcs;
  };
  const Case cases[] = {
      // and/or/xor/not: .pred .b16 .b32 .b64 (PTX ISA §9.7.8.1-4)
      {"and.pred %p1, %p2, %p3;", "and.pred", {"r:%p1"}, {"r:%p2", "r:%p3"}},
      {"and.b16 %rs1, %rs2, 0x00ff;", "and.b16", {"r:%rs1"}, {"r:%rs2", "i:0xff"}},
      {"and.b32 %r1, %r2, %r3;", "and.b32", {"r:%r1"}, {"r:%r2", "r:%r3"}},
      {"and.b64 %rd1, 0xF0F0F0F0F0F0F0F0, %rd3;", "and.b64", {"r:%rd1"}, {"i:0xf0f0f0f0f0f0f0f0", "r:%rd3"}},
      {"or.pred %p1, %p2, %p3;", "or.pred", {"r:%p1"}, {"r:%p2", "r:%p3"}},
      {"or.b16 %rs1, %rs2, %rs3;", "or.b16", {"r:%rs1"}, {"r:%rs2", "r:%rs3"}},
      {"or.b32 %r1, %r2, 1;", "or.b32", {"r:%r1"}, {"r:%r2", "i:0x1"}},
      {"or.b64 %rd1, %rd2, %rd3;", "or.b64", {"r:%rd1"}, {"r:%rd2", "r:%rd3"}},
      {"xor.pred %p1, %p2, %p3;", "xor.pred", {"r:%p1"}, {"r:%p2", "r:%p3"}},
      {"xor.b16 %rs1, %rs2, %rs3;", "xor.b16", {"r:%rs1"}, {"r:%rs2", "r:%rs3"}},
      {"xor.b32 %r1, %r2, 0b1010;", "xor.b32", {"r:%r1"}, {"r:%r2", "i:0xa"}},
      {"xor.b64 %rd1, %rd2, 0x123456789ABCDEF0;", "xor.b64", {"r:%rd1"}, {"r:%rd2", "i:0x123456789abcdef0"}},
      {"not.pred %p1, %p2;", "not.pred", {"r:%p1"}, {"r:%p2"}},
      {"not.b16 %rs1, %rs2;", "not.b16", {"r:%rs1"}, {"r:%rs2"}},
      {"not.b32 %r1, 010;", "not.b32", {"r:%r1"}, {"i:0x8"}},
      {"not.b64 %rd1, %rd2;", "not.b64", {"r:%rd1"}, {"r:%rd2"}},
      // cnot: .b16 .b32 .b64 (§9.7.8.5)
      {"cnot.b16 %rs1, %rs2;", "cnot.b16", {"r:%rs1"}, {"r:%rs2"}},
      {"cnot.b32 %r1, %r2;", "cnot.b32", {"r:%r1"}, {"r:%r2"}},
      {"cnot.b64 %rd1, 5U;", "cnot.b64", {"r:%rd1"}, {"i:0x5"}},
      // lop3 (§9.7.8.6): d, a, b, c, immLut; .and/.or: d|p, a, b, c, immLut, q
      {"lop3.b32 %r4, %r1, %r2, %r3, 0xCA;", "lop3.b32", {"r:%r4"}, {"r:%r1", "r:%r2", "r:%r3", "i:0xca"}},
      {"lop3.b32 %r4, 1, 2, 3, 255;", "lop3.b32", {"r:%r4"}, {"i:0x1", "i:0x2", "i:0x3", "i:0xff"}},
      {"lop3.b32 %r4, %r1, %r2, %r3, 0;", "lop3.b32", {"r:%r4"}, {"r:%r1", "r:%r2", "r:%r3", "i:0x0"}},
      {"lop3.and.b32 %r8|%p1, %r6, %r7, %r2, 0x80, %p2;",
       "lop3.and.b32",
       {"r:%r8", "r:%p1"},
       {"r:%r6", "r:%r7", "r:%r2", "i:0x80", "r:%p2"}},
      {"lop3.or.b32 %r9|%p2, %r8, %r1, %r3, 0xFE, %p1;",
       "lop3.or.b32",
       {"r:%r9", "r:%p2"},
       {"r:%r8", "r:%r1", "r:%r3", "i:0xfe", "r:%p1"}},
      {"lop3.and.b32 _|%p1, %r6, %r7, %r2, 0x80, %p2;",
       "lop3.and.b32",
       {"_", "r:%p1"},
       {"r:%r6", "r:%r7", "r:%r2", "i:0x80", "r:%p2"}},
      {"lop3.or.b32 _|%p3, %r1, %r2, %r3, 1, %p3;",
       "lop3.or.b32",
       {"_", "r:%p3"},
       {"r:%r1", "r:%r2", "r:%r3", "i:0x1", "r:%p3"}},
      // shf (§9.7.8.7): .l/.r, .wrap/.clamp, .b32; the amount is a register or immediate
      {"shf.l.wrap.b32 %r1, %r2, %r2, 7;", "shf.l.wrap.b32", {"r:%r1"}, {"r:%r2", "r:%r2", "i:0x7"}},
      {"shf.r.wrap.b32 %r1, %r2, %r3, %r4;", "shf.r.wrap.b32", {"r:%r1"}, {"r:%r2", "r:%r3", "r:%r4"}},
      {"shf.l.clamp.b32 %r4, %r1, %r2, %r3;", "shf.l.clamp.b32", {"r:%r4"}, {"r:%r1", "r:%r2", "r:%r3"}},
      {"shf.r.clamp.b32 %r5, %r1, %r2, 40;", "shf.r.clamp.b32", {"r:%r5"}, {"r:%r1", "r:%r2", "i:0x28"}},
      // shl (§9.7.8.8): .b16 .b32 .b64; shr (§9.7.8.9): .b .u .s x 16 32 64; amount .u32
      {"shl.b16 %rs2, %rs1, %r1;", "shl.b16", {"r:%rs2"}, {"r:%rs1", "r:%r1"}},
      {"shl.b32 %r2, %r1, 31;", "shl.b32", {"r:%r2"}, {"r:%r1", "i:0x1f"}},
      {"shl.b64 %rd2, %rd1, %r3;", "shl.b64", {"r:%rd2"}, {"r:%rd1", "r:%r3"}},
      {"shr.b16 %rs1, %rs2, %r1;", "shr.b16", {"r:%rs1"}, {"r:%rs2", "r:%r1"}},
      {"shr.b32 %r4, %r1, %r3;", "shr.b32", {"r:%r4"}, {"r:%r1", "r:%r3"}},
      {"shr.b64 %rd1, %rd2, 63;", "shr.b64", {"r:%rd1"}, {"r:%rd2", "i:0x3f"}},
      {"shr.u16 %rs3, %rs1, %r1;", "shr.u16", {"r:%rs3"}, {"r:%rs1", "r:%r1"}},
      {"shr.u32 %r1, %r2, 3;", "shr.u32", {"r:%r1"}, {"r:%r2", "i:0x3"}},
      {"shr.u64 %rd3, %rd1, 40;", "shr.u64", {"r:%rd3"}, {"r:%rd1", "i:0x28"}},
      {"shr.s16 %rs4, %rs1, 15;", "shr.s16", {"r:%rs4"}, {"r:%rs1", "i:0xf"}},
      {"shr.s32 %r5, %r1, 31;", "shr.s32", {"r:%r5"}, {"r:%r1", "i:0x1f"}},
      {"shr.s64 %rd4, %rd1, %r3;", "shr.s64", {"r:%rd4"}, {"r:%rd1", "r:%r3"}},
      // inline-asm operands and declared plain identifiers are registers too
      {"shf.l.wrap.b32 %0, %1, %1, 7;", "shf.l.wrap.b32", {"r:%0"}, {"r:%1", "r:%1", "i:0x7"}},
  };
  for (const Case &c : cases) {
    INFO("source: " << c.source);
    ir::Instruction inst = decodeOk(c.source);
    CHECK(inst.form.name() == c.name);
    CHECK(operandsText(inst.dsts) == c.dsts);
    CHECK(operandsText(inst.srcs) == c.srcs);
  }
}

TEST_CASE("decoded form fields") {
  {
    ir::Instruction shf = decodeOk("shf.r.clamp.b32 %r5, %r1, %r2, %r3;");
    CHECK(shf.form.opcode == ir::Opcode::Shf);
    CHECK(shf.form.dir == ir::ShfDir::Right);
    CHECK(shf.form.mode == ir::ShfMode::Clamp);
    CHECK(shf.form.type == ir::TypeClass::B);
    CHECK(shf.form.width == 32);
    ir::Instruction shr = decodeOk("shr.s16 %rs4, %rs1, 15;");
    CHECK(shr.form.opcode == ir::Opcode::Shr);
    CHECK(shr.form.type == ir::TypeClass::S);
    CHECK(shr.form.width == 16);
    ir::Instruction shru = decodeOk("shr.u64 %rd4, %rd1, 15;");
    CHECK(shru.form.type == ir::TypeClass::U);
    CHECK(shru.form.width == 64);
    ir::Instruction pred = decodeOk("xor.pred %p1, %p2, %p3;");
    CHECK(pred.form.type == ir::TypeClass::Pred);
    CHECK(pred.form.width == 1);
    ir::Instruction l3 = decodeOk("lop3.or.b32 _|%p1, %r1, %r2, %r3, 1, %p2;");
    CHECK(l3.form.opcode == ir::Opcode::Lop3);
    CHECK(l3.form.boolop == ir::BoolOp::Or);
    CHECK(l3.dsts[0].kind == OpKind::Sink);
    CHECK_FALSE(l3.dsts[0].isReg());
    CHECK(l3.dsts[1].isReg());
    CHECK(decodeOk("lop3.and.b32 %r1|%p1, %r1, %r2, %r3, 1, %p2;").form.boolop == ir::BoolOp::And);
    CHECK(decodeOk("lop3.b32 %r1, %r1, %r2, %r3, 1;").form.boolop == ir::BoolOp::None);
  }

}

TEST_CASE("decoded operand locations and source text") {
  {
    ir::Instruction inst = decodeOk("\n   shf.l.wrap.b32 %r1, %r2, %r3, 7;");
    CHECK(inst.loc.line == 2);
    CHECK(inst.loc.col == 4);
    CHECK(inst.text.str() == "shf.l.wrap.b32 %r1, %r2, %r3, 7");
    CHECK(inst.dsts[0].loc.line == 2);
    CHECK(inst.dsts[0].loc.col == 19);
    CHECK(inst.srcs[0].loc.col == 24);
    CHECK(inst.srcs[1].loc.col == 29);
    CHECK(inst.srcs[2].loc.col == 34);
  }

}

TEST_CASE("plain identifiers declared .reg decode as registers") {
  {
    Decoded d = decodeSnippet("{ .reg .b32 x, y; and.b32 x, y, 3; }");
    INFO(describe(d.diags));
    REQUIRE(d.insts.size() == 1);
    REQUIRE(d.insts[0].has_value());
    CHECK(operandsText(d.insts[0]->dsts) == Strings{"r:x"});
    CHECK(operandsText(d.insts[0]->srcs) == Strings{"r:y", "i:0x3"});
    CHECK(d.diags.empty());
  }
}

TEST_CASE("immediates are truncated to the operand width, with a warning where bits are lost") {
  // ptxas 13 truncates silently; a constant that fits neither as signed nor
  // as unsigned (0x12345 for .b16; not -1) also gets -Wconstant-truncated.
  struct Case {
    const char *source;
    Strings srcs;
    size_t truncated; // operands that lose bits
  };
  const Case cases[] = {
      {"and.b16 %rs1, %rs2, 0x12345;", {"r:%rs2", "i:0x2345"}, 1},
      {"and.b16 %rs1, %rs2, -1;", {"r:%rs2", "i:0xffff"}, 0},
      {"or.b16 %rs1, 65536, %rs2;", {"i:0x0", "r:%rs2"}, 1},
      {"and.b32 %r1, %r2, -1;", {"r:%r2", "i:0xffffffff"}, 0},
      {"and.b32 %r1, %r2, 0x1FFFFFFFF;", {"r:%r2", "i:0xffffffff"}, 1},
      {"xor.b32 %r1, %r2, -2;", {"r:%r2", "i:0xfffffffe"}, 0},
      {"and.b64 %rd1, %rd2, -1;", {"r:%rd2", "i:0xffffffffffffffff"}, 0},
      {"or.b64 %rd1, %rd2, 0xFFFFFFFFFFFFFFFF;", {"r:%rd2", "i:0xffffffffffffffff"}, 0},
      {"not.b16 %rs1, 0x1FFFF;", {"i:0xffff"}, 1},
      {"cnot.b16 %rs1, 0x10001;", {"i:0x1"}, 1},
      {"cnot.b32 %r1, -1;", {"i:0xffffffff"}, 0},
      // the shift amount is .u32 whatever the data width
      {"shl.b16 %rs1, %rs2, 0x100000003;", {"r:%rs2", "i:0x3"}, 1},
      {"shl.b64 %rd1, %rd2, 0x100000003;", {"r:%rd2", "i:0x3"}, 1},
      {"shl.b64 %rd1, 0x123456789, %r2;", {"i:0x123456789", "r:%r2"}, 0},
      {"shr.s16 %rs1, 0x18000, 1;", {"i:0x8000", "i:0x1"}, 1},
      {"shr.u64 %rd1, %rd2, -1;", {"r:%rd2", "i:0xffffffff"}, 0},
      // shf and lop3 data operands are 32 bits, immLut 8
      {"shf.l.wrap.b32 %r1, 0xFFFFFFFF1, %r2, 0x100000007;", {"i:0xfffffff1", "r:%r2", "i:0x7"}, 2},
      {"lop3.b32 %r1, -1, 0x100000002, %r3, 0xFF;", {"i:0xffffffff", "i:0x2", "r:%r3", "i:0xff"}, 1},
  };
  for (const Case &c : cases) {
    INFO("source: " << c.source);
    Decoded d = decodeSnippet(c.source);
    INFO("diagnostics: " << describe(d.diags));
    REQUIRE(d.insts.size() == 1);
    REQUIRE(d.insts[0].has_value());
    CHECK(operandsText(d.insts[0]->srcs) == c.srcs);
    REQUIRE(d.diags.size() == c.truncated);
    for (const p2a::Diagnostic &w : d.diags) {
      CHECK(w.severity == p2a::Diagnostic::Severity::Warning);
      CHECK(w.flag == "constant-truncated");
    }
  }
}

TEST_CASE("error: unsupported instructions") {
  expectError("tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [t, {%f5, %f6}];", 1, 1,
              "unsupported PTX instruction 'tex.2d.v4.f32.f32'");
  expectError("  atom.global.add.u32 %r1, [%rd1], %r3;", 1, 3, "unsupported PTX instruction 'atom.global.add.u32' outside a kernel: it is translated inside an .entry, where memory, lanes and control flow exist");
  expectError("ret;", 1, 1, "unsupported PTX instruction 'ret' outside a kernel: it is translated inside an .entry, where memory, lanes and control flow exist");
  expectError("ld.global.nc.v4.u32 {%r1, %r2, %r3, %r4}, [%rd1];", 1, 1,
              "unsupported PTX instruction 'ld.global.nc.v4.u32' outside a kernel: it is translated inside an .entry, where memory, lanes and control flow exist");
  // Family names are case sensitive, and near-misses are other instructions.
  expectError("AND.b32 %r1, %r2, %r3;", 1, 1, "unsupported PTX instruction 'AND.b32'");
  expectError("suld.b.1d.b32.trap {%r1}, [surf, {%r2}];", 1, 1, "unsupported PTX instruction 'suld.b.1d.b32.trap'");
  // A guarded unsupported instruction names the opcode, at the opcode.
  expectError("@%p1 bra done;", 1, 6, "unsupported PTX instruction 'bra' outside a kernel: it is translated inside an .entry, where memory, lanes and control flow exist");
  // Several statements: each error is reported at its own line.
  expectErrors("and.b32 %r1, %r2, %r3;\n  atom.global.inc.u32 %r4, [%rd1], 1;\nred.global.add.u32 [%rd1], 1;",
               {{2, 3, "unsupported PTX instruction 'atom.global.inc.u32' outside a kernel: it is translated inside an .entry, where memory, lanes and control flow exist"},
                {3, 1, "unsupported PTX instruction 'red.global.add.u32' outside a kernel: it is translated inside an .entry, where memory, lanes and control flow exist"}});
}

TEST_CASE("error: guard predicates are not supported") {
  expectError("@%p1 and.b32 %r1, %r2, %r3;", 1, 1,
              "guard predicates are not supported on 'and.b32' in this translation mode");
  expectError("  @!%p2 shf.l.wrap.b32 %r1, %r2, %r2, 7;", 1, 3,
              "guard predicates are not supported on 'shf.l.wrap.b32' in this translation mode");
  // The guard is reported before any form check.
  expectError("@%p1 and.u32 %r1, %r2, %r3;", 1, 1,
              "guard predicates are not supported on 'and.u32' in this translation mode");
}

TEST_CASE("error: missing or unknown type") {
  expectError("and %r1, %r2, %r3;", 1, 1, "invalid form 'and': missing type suffix");
  expectError("shf %r1, %r2, %r3, %r4;", 1, 1, "invalid form 'shf': missing type suffix");
  expectError("lop3 %r1, %r2, %r3, %r4, 1;", 1, 1, "invalid form 'lop3': missing type suffix");
  expectError("and.f32 %r1, %r2, %r3;", 1, 1, "invalid form 'and.f32': '.f32' is not a type");
  expectError("and.b128 %r1, %r2, %r3;", 1, 1, "invalid form 'and.b128': '.b128' is not a type");
  expectError("and.u %r1, %r2, %r3;", 1, 1, "invalid form 'and.u': '.u' is not a type");
  expectError("and.b %r1, %r2, %r3;", 1, 1, "invalid form 'and.b': '.b' is not a type");
  expectError("and.b33 %r1, %r2, %r3;", 1, 1, "invalid form 'and.b33': '.b33' is not a type");
  expectError("xor.b032 %r1, %r2, %r3;", 1, 1, "invalid form 'xor.b032': '.b032' is not a type");
  expectError("shf.l.wrap %r1, %r2, %r3, %r4;", 1, 1, "invalid form 'shf.l.wrap': '.wrap' is not a type");
  expectError("shl.s %r1, %r2, %r3;", 1, 1, "invalid form 'shl.s': '.s' is not a type");
  // The type must be last.
  expectError("and.b32.sync %r1, %r2, %r3;", 1, 1, "invalid form 'and.b32.sync': '.sync' is not a type");
}

TEST_CASE("error: and/or/xor/not take .pred .b16 .b32 .b64 only (PTX ISA §9.7.8)") {
  const char *msg = ": type must be one of .pred, .b16, .b32, .b64";
  for (const char *op : {"and", "or", "xor"})
    for (const char *ty : {"u32", "s32", "u16", "s64", "u64", "b8", "u8", "s8"}) {
      const std::string name = std::string(op) + "." + ty;
      expectError(name + " %r1, %r2, %r3;", 1, 1, "invalid form '" + name + "'" + msg);
    }
  for (const char *ty : {"u32", "s16", "b8", "u64"}) {
    const std::string name = std::string("not.") + ty;
    expectError(name + " %r1, %r2;", 1, 1, "invalid form '" + name + "'" + msg);
  }
  expectError("and.sync.b32 %r1, %r2, %r3;", 1, 1, "invalid form 'and.sync.b32': unexpected modifier '.sync'");
  expectError("not.x.y.b32 %r1, %r2;", 1, 1, "invalid form 'not.x.y.b32': unexpected modifier '.x'");
  expectError("or.l.pred %p1, %p2, %p3;", 1, 1, "invalid form 'or.l.pred': unexpected modifier '.l'");
}

TEST_CASE("error: cnot takes .b16 .b32 .b64 only") {
  const char *msg = ": type must be one of .b16, .b32, .b64";
  expectError("cnot.pred %p1, %p2;", 1, 1, std::string("invalid form 'cnot.pred'") + msg);
  expectError("cnot.u32 %r1, %r2;", 1, 1, std::string("invalid form 'cnot.u32'") + msg);
  expectError("cnot.s16 %rs1, %rs2;", 1, 1, std::string("invalid form 'cnot.s16'") + msg);
  expectError("cnot.b8 %r1, %r2;", 1, 1, std::string("invalid form 'cnot.b8'") + msg);
  expectError("cnot.and.b32 %r1, %r2;", 1, 1, "invalid form 'cnot.and.b32': unexpected modifier '.and'");
}

TEST_CASE("error: lop3 forms") {
  expectError("lop3.b64 %rd1, %rd2, %rd3, %rd4, 0x96;", 1, 1, "invalid form 'lop3.b64': lop3 is .b32 only");
  expectError("lop3.b16 %rs1, %rs2, %rs3, %rs4, 0x96;", 1, 1, "invalid form 'lop3.b16': lop3 is .b32 only");
  expectError("lop3.u32 %r1, %r2, %r3, %r4, 0x96;", 1, 1, "invalid form 'lop3.u32': lop3 is .b32 only");
  expectError("lop3.pred %p1, %p2, %p3, %p4, 0x96;", 1, 1, "invalid form 'lop3.pred': lop3 is .b32 only");
  expectError("lop3.and.b64 %rd1|%p1, %rd2, %rd3, %rd4, 0x96, %p2;", 1, 1,
              "invalid form 'lop3.and.b64': lop3 is .b32 only");
  expectError("lop3.and.or.b32 %r1|%p1, %r2, %r3, %r4, 0x96, %p2;", 1, 1,
              "invalid form 'lop3.and.or.b32': at most one of .and/.or");
  expectError("lop3.xor.b32 %r1, %r2, %r3, %r4, 0x96;", 1, 1,
              "invalid form 'lop3.xor.b32': unexpected modifier '.xor' (expected .and or .or)");
  expectError("lop3.sync.b32 %r1, %r2, %r3, %r4, 0x96;", 1, 1,
              "invalid form 'lop3.sync.b32': unexpected modifier '.sync' (expected .and or .or)");
}

TEST_CASE("error: shf forms") {
  expectError("shf.b64 %rd1, %rd2, %rd3, %r4;", 1, 1, "invalid form 'shf.b64': shf needs a direction, .l or .r");
  expectError("shf.b32 %r1, %r2, %r3, %r4;", 1, 1, "invalid form 'shf.b32': shf needs a direction, .l or .r");
  expectError("shf.wrap.b32 %r1, %r2, %r3, %r4;", 1, 1,
              "invalid form 'shf.wrap.b32': shf needs a direction, .l or .r");
  expectError("shf.l.b32 %r1, %r2, %r3, %r4;", 1, 1, "invalid form 'shf.l.b32': shf needs a mode, .wrap or .clamp");
  expectError("shf.r.b32 %r1, %r2, %r3, %r4;", 1, 1, "invalid form 'shf.r.b32': shf needs a mode, .wrap or .clamp");
  expectError("shf.l.wrap.b64 %rd1, %rd2, %rd3, %r4;", 1, 1, "invalid form 'shf.l.wrap.b64': shf is .b32 only");
  expectError("shf.r.clamp.b64 %rd1, %rd2, %rd3, %r4;", 1, 1, "invalid form 'shf.r.clamp.b64': shf is .b32 only");
  expectError("shf.r.clamp.u32 %r1, %r2, %r3, %r4;", 1, 1, "invalid form 'shf.r.clamp.u32': shf is .b32 only");
  expectError("shf.l.wrap.b16 %rs1, %rs2, %rs3, %r4;", 1, 1, "invalid form 'shf.l.wrap.b16': shf is .b32 only");
  expectError("shf.l.l.wrap.b32 %r1, %r2, %r3, %r4;", 1, 1,
              "invalid form 'shf.l.l.wrap.b32': unexpected modifier '.l'");
  expectError("shf.l.r.wrap.b32 %r1, %r2, %r3, %r4;", 1, 1,
              "invalid form 'shf.l.r.wrap.b32': unexpected modifier '.r'");
  expectError("shf.l.wrap.clamp.b32 %r1, %r2, %r3, %r4;", 1, 1,
              "invalid form 'shf.l.wrap.clamp.b32': unexpected modifier '.clamp'");
  expectError("shf.left.wrap.b32 %r1, %r2, %r3, %r4;", 1, 1,
              "invalid form 'shf.left.wrap.b32': unexpected modifier '.left'");
}

TEST_CASE("error: shl and shr types") {
  const char *shl = ": shl takes .b16, .b32 or .b64";
  for (const char *ty : {"u32", "s32", "u16", "s64", "u64", "pred", "b8"}) {
    const std::string name = std::string("shl.") + ty;
    expectError(name + " %r1, %r2, %r3;", 1, 1, "invalid form '" + name + "'" + shl);
  }
  const char *shr = ": shr takes .b, .u or .s with 16, 32 or 64 bits";
  for (const char *ty : {"pred", "b8", "u8", "s8"}) {
    const std::string name = std::string("shr.") + ty;
    expectError(name + " %r1, %r2, %r3;", 1, 1, "invalid form '" + name + "'" + shr);
  }
  expectError("shl.wide.b32 %r1, %r2, %r3;", 1, 1, "invalid form 'shl.wide.b32': unexpected modifier '.wide'");
  expectError("shr.l.u32 %r1, %r2, %r3;", 1, 1, "invalid form 'shr.l.u32': unexpected modifier '.l'");
}

TEST_CASE("error: wrong operand count") {
  expectError("and.b32 %r1, %r2;", 1, 1, "'and.b32' expects 3 operands, got 2");
  expectError("or.pred %p1, %p2, %p3, %p4;", 1, 1, "'or.pred' expects 3 operands, got 4");
  expectError("not.b32 %r1, %r2, %r3;", 1, 1, "'not.b32' expects 2 operands, got 3");
  expectError("cnot.b16 %rs1;", 1, 1, "'cnot.b16' expects 2 operands, got 1");
  expectError("xor.b64;", 1, 1, "'xor.b64' expects 3 operands, got 0");
  expectError("lop3.b32 %r1, %r2, %r3, %r4;", 1, 1, "'lop3.b32' expects 5 operands, got 4");
  expectError("lop3.b32 %r1, %r2, %r3, %r4, 0x96, %p1;", 1, 1, "'lop3.b32' expects 5 operands, got 6");
  expectError("lop3.and.b32 %r1|%p1, %r2, %r3, %r4, 0x96;", 1, 1, "'lop3.and.b32' expects 6 operands, got 5");
  expectError("lop3.or.b32 %r1, %p1, %r2, %r3, %r4, 0x96, %p2;", 1, 1, "'lop3.or.b32' expects 6 operands, got 7");
  expectError("shf.l.wrap.b32 %r1, %r2, %r3;", 1, 1, "'shf.l.wrap.b32' expects 4 operands, got 3");
  expectError("shl.b32 %r1, %r2;", 1, 1, "'shl.b32' expects 3 operands, got 2");
  expectError("   shr.s64 %rd1, %rd2, %r3, 4;", 1, 4, "'shr.s64' expects 3 operands, got 4");
}

TEST_CASE("error: destinations must be registers") {
  expectError("and.b32 1, %r2, %r3;", 1, 9, "destination of 'and.b32' must be a register");
  expectError("and.b32 _, %r2, %r3;", 1, 9, "destination of 'and.b32' must be a register");
  expectError("not.pred !%p1, %p2;", 1, 10, "destination of 'not.pred' must be a register");
  expectError("and.b32 %r1.x, %r2, %r3;", 1, 9, "destination of 'and.b32' must be a register");
  expectError("and.b32 [%rd1], %r2, %r3;", 1, 9, "destination of 'and.b32' must be a register");
  expectError("and.b32 {%r1, %r2}, %r2, %r3;", 1, 9, "destination of 'and.b32' must be a register");
  expectError("and.b32 undeclared, %r2, %r3;", 1, 9, "destination of 'and.b32' must be a register");
  expectError("xor.b32 %r1|%p1, %r2, %r3;", 1, 9, "destination of 'xor.b32' must be a register");
  expectError("lop3.b32 %r1|%p1, %r2, %r3, %r4, 0x96;", 1, 10, "destination of 'lop3.b32' must be a register");
  // lop3.and/.or need the d|p pair.
  expectError("lop3.and.b32 %r1, %r2, %r3, %r4, 0x96, %p1;", 1, 14,
              "expected 'd|p' destination pair for 'lop3.and.b32'");
  expectError("lop3.or.b32 _, %r2, %r3, %r4, 0x96, %p1;", 1, 13, "expected 'd|p' destination pair for 'lop3.or.b32'");
  expectError("lop3.or.b32 7, %r2, %r3, %r4, 0x96, %p1;", 1, 13, "expected 'd|p' destination pair for 'lop3.or.b32'");
  // A pair that is negated or selects a vector element is not a plain d|p.
  expectError("lop3.and.b32 !%r1|%p1, %r2, %r3, %r4, 0x96, %p2;", 1, 14,
              "expected 'd|p' destination pair for 'lop3.and.b32'");
  expectError("lop3.or.b32 %r1.x|%p1, %r2, %r3, %r4, 0x96, %p2;", 1, 13,
              "expected 'd|p' destination pair for 'lop3.or.b32'");
}

TEST_CASE("error: the predicate of a d|p pair cannot be the sink") {
  // The grammar never produces `%r|_` (it wants a register after '|'), so the
  // decoder's own check is exercised on a hand-built AST.
  ast::Instruction in;
  in.loc = in.opcode_loc = {3, 5};
  in.opcode = "lop3";
  in.modifiers = {"and", "b32"};
  in.text = "lop3.and.b32 %r1|_, %r2, %r3, %r4, 0x96, %p1";
  ast::Operand pair;
  pair.kind = ast::Operand::Kind::Pair;
  pair.loc = {3, 18};
  pair.name = "%r1";
  pair.name2 = "_";
  pair.text = "%r1|_";
  in.operands.push_back(pair);
  for (const char *r : {"%r2", "%r3", "%r4"}) {
    ast::Operand o;
    o.kind = ast::Operand::Kind::Register;
    o.name = o.text = r;
    in.operands.push_back(o);
  }
  ast::Operand lut;
  lut.kind = ast::Operand::Kind::Immediate;
  lut.imm_bits = 0x96;
  lut.text = "0x96";
  in.operands.push_back(lut);
  ast::Operand q;
  q.kind = ast::Operand::Kind::Register;
  q.name = q.text = "%p1";
  in.operands.push_back(q);

  p2a::Diagnostics diags;
  CHECK_FALSE(ir::decodeInstruction(in, diags).has_value());
  REQUIRE(diags.size() == 1);
  CHECK(diags[0].message == "the predicate destination of 'lop3.and.b32' cannot be '_'");
  CHECK(diags[0].loc.line == 3);
  CHECK(diags[0].loc.col == 18);

  in.operands[0].name2.clear(); // no predicate at all
  diags.clear();
  CHECK_FALSE(ir::decodeInstruction(in, diags).has_value());
  REQUIRE(diags.size() == 1);
  CHECK(diags[0].message == "the predicate destination of 'lop3.and.b32' cannot be '_'");

  in.operands[0].name2 = "%p9"; // and the same AST with a real predicate decodes
  diags.clear();
  std::optional<ir::Instruction> ok = ir::decodeInstruction(in, diags);
  REQUIRE(ok.has_value());
  CHECK(diags.empty());
  CHECK(operandsText(ok->dsts) == Strings{"r:%r1", "r:%p9"});
}

TEST_CASE("error: a location-less opcode falls back to the statement location") {
  ast::Instruction in;
  in.loc = {7, 2};
  in.opcode = "atom";
  in.modifiers = {"add", "u32"};
  p2a::Diagnostics diags;
  CHECK_FALSE(ir::decodeInstruction(in, diags).has_value());
  REQUIRE(diags.size() == 1);
  CHECK(diags[0].loc.line == 7);
  CHECK(diags[0].loc.col == 2);
  CHECK(diags[0].message == "unsupported PTX instruction 'atom.add.u32' outside a kernel: it is translated inside an .entry, where memory, lanes and control flow exist");
}

TEST_CASE("error: source operands") {
  // Floating-point immediates, in every spelling.
  expectError("and.b32 %r1, %r2, 0f3F800000;", 1, 19,
              "floating-point immediate '0f3F800000' is not valid for 'and.b32'");
  expectError("or.b64 %rd1, 0d3FF0000000000000, %rd2;", 1, 14,
              "floating-point immediate '0d3FF0000000000000' is not valid for 'or.b64'");
  expectError("xor.b32 %r1, %r2, 1.5;", 1, 19, "floating-point immediate '1.5' is not valid for 'xor.b32'");
  expectError("shl.b32 %r1, %r2, -0f3F800000;", 1, 19,
              "floating-point immediate '-0f3F800000' is not valid for 'shl.b32'");
  expectError("lop3.b32 %r1, %r2, %r3, %r4, 1.0;", 1, 30,
              "floating-point immediate '1.0' is not valid for 'lop3.b32'");
  // Predicate sources must be registers.
  expectError("and.pred %p1, %p2, 1;", 1, 20, "predicate operand must be a register");
  expectError("not.pred %p1, 0;", 1, 15, "predicate operand must be a register");
  expectError("xor.pred %p1, 1, %p2;", 1, 15, "predicate operand must be a register");
  expectError("lop3.and.b32 %r1|%p1, %r2, %r3, %r4, 0x80, 1;", 1, 44, "predicate operand must be a register");
  expectError("lop3.or.b32 _|%p1, %r2, %r3, %r4, 0x80, 0;", 1, 41, "predicate operand must be a register");
  // immLut is an integer constant in 0..255.
  expectError("lop3.b32 %r1, %r2, %r3, %r4, 256;", 1, 30, "immLut must be in 0..255, got 256");
  expectError("lop3.b32 %r1, %r2, %r3, %r4, 0x1CA;", 1, 30, "immLut must be in 0..255, got 0x1CA");
  expectError("lop3.b32 %r1, %r2, %r3, %r4, -1;", 1, 30, "immLut must be in 0..255, got -1");
  expectError("lop3.and.b32 %r1|%p1, %r2, %r3, %r4, 0xFFFFFFFF, %p2;", 1, 38,
              "immLut must be in 0..255, got 0xFFFFFFFF");
  expectError("lop3.b32 %r1, %r2, %r3, %r4, %r5;", 1, 30, "immLut must be an integer constant");
  expectError("lop3.or.b32 %r1|%p1, %r2, %r3, %r4, %r5, %p2;", 1, 37, "immLut must be an integer constant");
  // Anything else that is not a plain register or integer.
  expectError("and.pred %p1, !%p2, %p3;", 1, 15, "invalid source operand '!%p2' for 'and.pred'");
  expectError("and.b32 %r1, %r2.x, %r3;", 1, 14, "invalid source operand '%r2.x' for 'and.b32'");
  expectError("and.b32 %r1, [%rd1], %r3;", 1, 14, "invalid source operand '[%rd1]' for 'and.b32'");
  expectError("and.b32 %r1, {%r2, %r3}, %r3;", 1, 14, "invalid source operand '{%r2, %r3}' for 'and.b32'");
  expectError("and.b32 %r1, %r2, _;", 1, 19, "invalid source operand '_' for 'and.b32'");
  expectError("and.b32 %r1, %r2, %r3|%p1;", 1, 19, "invalid source operand '%r3|%p1' for 'and.b32'");
  expectError("shl.b32 %r1, %r2, some_symbol;", 1, 19, "invalid source operand 'some_symbol' for 'shl.b32'");
  expectError("lop3.b32 %r1, %r2, %r3, %r4, _;", 1, 30, "invalid source operand '_' for 'lop3.b32'");
}

TEST_CASE("errors: one per instruction, and decoding goes on") {
  expectErrors("and.u32 %r1, %r2, %r3;\n"
               "shf.l.wrap.b32 %r1, %r2, %r3, %r4;\n"
               "  shl.b32 %r1, %r2;\n"
               "lop3.b32 %r1, %r2, %r3, %r4, 300;\n",
               {{1, 1, "invalid form 'and.u32': type must be one of .pred, .b16, .b32, .b64"},
                {3, 3, "'shl.b32' expects 3 operands, got 2"},
                {4, 30, "immLut must be in 0..255, got 300"}});
}

TEST_CASE("register typing: declarations and conflicts") {
  SUBCASE("a .b64 register used by a 32-bit form") {
    expectErrors(".reg .b64 %rd<3>;\nand.b32 %rd1, %rd2, %rd0;",
                 {{2, 9, "register %rd1 is .b64 but 'and.b32' needs 32-bit here"},
                  {2, 15, "register %rd2 is .b64 but 'and.b32' needs 32-bit here"},
                  {2, 21, "register %rd0 is .b64 but 'and.b32' needs 32-bit here"}});
  }
  SUBCASE("a data register used as a predicate, and a predicate used as data") {
    expectErrors(".reg .b32 %r<3>;\n.reg .pred %p<3>;\nand.pred %r1, %p1, %p2;\nor.b32 %r1, %p1, %r2;",
                 {{3, 10, "register %r1 is .b32 but 'and.pred' needs .pred here"},
                  {4, 13, "register %p1 is .pred but 'or.b32' needs 32-bit here"}});
  }
  SUBCASE("the type class is kept in the message") {
    expectError(".reg .s16 %h<2>;\nxor.b32 %r1, %h1, 1;", 2, 14, "register %h1 is .s16 but 'xor.b32' needs 32-bit here");
    expectError(".reg .u64 %x;\nnot.b16 %rs1, %x;", 2, 15, "register %x is .u64 but 'not.b16' needs 16-bit here");
  }
  SUBCASE("shift amounts are 32-bit whatever the data width") {
    expectError(".reg .b64 %rd<3>;\nshl.b64 %rd1, %rd2, %rd0;", 2, 21,
                "register %rd0 is .b64 but 'shl.b64' needs 32-bit here");
    expectError(".reg .b16 %rs<3>;\nshr.s16 %rs1, %rs2, %rs0;", 2, 21,
                "register %rs0 is .b16 but 'shr.s16' needs 32-bit here");
    expectError(".reg .b32 %r<3>;\nshf.l.wrap.b32 %r1, %r2, %r2, %rd0;\n.reg .b64 %rd0;", 2, 31,
                "register %rd0 is .b64 but 'shf.l.wrap.b32' needs 32-bit here");
  }
  SUBCASE("lop3.and/.or: p and q are predicates, d/a/b/c 32-bit") {
    expectErrors(".reg .b32 %r<6>;\nlop3.and.b32 %r1|%r2, %r3, %r4, %r5, 0x80, %r0;",
                 {{2, 14, "register %r2 is .b32 but 'lop3.and.b32' needs .pred here"},
                  {2, 44, "register %r0 is .b32 but 'lop3.and.b32' needs .pred here"}});
    expectError(".reg .pred %p<3>;\nlop3.or.b32 _|%p1, %r1, %p2, %r3, 1, %p0;", 2, 25,
                "register %p2 is .pred but 'lop3.or.b32' needs 32-bit here");
  }
  SUBCASE("undeclared registers are typed by their first use") {
    expectErrors("and.b32 %x, %y, 1;\nand.b64 %x, %x, 1;",
                 {{2, 9, "register %x is .b32 but 'and.b64' needs 64-bit here"},
                  {2, 13, "register %x is .b32 but 'and.b64' needs 64-bit here"}});
    expectError("shl.b64 %a, %a, %a;", 1, 17, "register %a is .b64 but 'shl.b64' needs 32-bit here");
    Decoded d = decodeSnippet("and.pred %q, %q2, %q3;\nxor.b16 %h, %h, 3;");
    CHECK(d.diags.empty());
    REQUIRE(d.types.count("%q"));
    CHECK(d.types.at("%q").cls == ir::TypeClass::Pred);
    CHECK(d.types.at("%q").width == 1);
    REQUIRE(d.types.count("%h"));
    CHECK(d.types.at("%h").cls == ir::TypeClass::B);
    CHECK(d.types.at("%h").width == 16);
  }
  SUBCASE("b/u/s of the same width are compatible, and .reg ranges expand") {
    Decoded d = decodeSnippet(".reg .u32 %r<4>;\n.reg .s64 %rd<3>;\n.reg .u16 %rs<2>;\n"
                              "and.b32 %r1, %r2, %r3;\nshr.s64 %rd1, %rd2, %r0;\nshl.b16 %rs1, %rs0, %r3;\n"
                              "shr.u32 %r0, %r1, %r2;");
    INFO(describe(d.diags));
    CHECK(d.diags.empty());
    for (bool t : d.typed)
      CHECK(t);
    CHECK(d.types.size() == 4 + 3 + 2);
    CHECK(d.types.count("%r3"));
    CHECK_FALSE(d.types.count("%r4"));
    CHECK(d.types.at("%rd2").cls == ir::TypeClass::S);
    CHECK(d.types.at("%rd2").width == 64);
  }
  SUBCASE("declarations inside blocks and after use still type the snippet") {
    expectError("{ .reg .pred p; and.b32 p, %r1, 1; }", 1, 25, "register p is .pred but 'and.b32' needs 32-bit here");
    expectErrors("and.b32 %r1, %r1, 1;\n.reg .b16 %r1;",
                 {{1, 9, "register %r1 is .b16 but 'and.b32' needs 32-bit here"},
                  {1, 14, "register %r1 is .b16 but 'and.b32' needs 32-bit here"}});
  }
  SUBCASE("non-integer registers are not typed here") {
    Decoded d = decodeSnippet(".reg .f32 %f<2>;\nand.b32 %f1, %f0, 1;");
    CHECK(d.diags.empty());
  }
  SUBCASE("the sink takes no type") {
    Decoded d = decodeSnippet(".reg .pred %p<2>;\nlop3.and.b32 _|%p1, %r1, %r2, %r3, 1, %p0;");
    CHECK(d.diags.empty());
    CHECK_FALSE(d.types.count("_"));
  }
}

TEST_CASE("register types: a declared range is matched by its names' digits") {
  ir::RegisterTypes types;
  const ir::RegisterType b32{ir::TypeClass::B, 32}, s64{ir::TypeClass::S, 64}, pred{ir::TypeClass::Pred, 1};
  types.setRange("%r", 10, b32);
  types.setRange("%x1", 3, s64); // %x10, %x11, %x12
  CHECK(types.size() == 13);
  CHECK(types.count("%r0"));
  CHECK(types.count("%r9"));
  CHECK_FALSE(types.count("%r10"));
  CHECK_FALSE(types.count("%r01")); // (not a name %r<10> declares)
  CHECK_FALSE(types.count("%r"));
  CHECK_FALSE(types.count("%q1"));
  CHECK(types.at("%x12").width == 64);
  CHECK_FALSE(types.count("%x1")); // (%x's 1st: no range %x)
  CHECK_FALSE(types.count("%x13"));
  CHECK_THROWS_AS(types.at("%x13"), std::out_of_range);
  // The last declaration of a name stands, a single one or a range.
  types.set("%r3", pred);
  CHECK(types.at("%r3").cls == ir::TypeClass::Pred);
  types.setRange("%r", 5, s64);
  CHECK(types.at("%r3").width == 64);
  CHECK(types.at("%r7").width == 32);
  CHECK(types.size() == 13); // (names, each once: %r3 and %r0..%r4 were declared again)
  types.setRange("%r", 12, b32); // (%r10, %r11 are new)
  types.set("%r11", pred);       // (not new)
  types.set("%q", pred);         // (new)
  CHECK(types.size() == 16);
  types.setRange("%q", 3, b32);  // (%q0..%q2: %q is no index of %q's)
  CHECK(types.size() == 19);
  types.set("%q1", pred);
  types.setRange("%p", 2, pred);
  types.set("%p5", pred);
  types.setRange("%p", 8, pred); // (%p2..%p7 are new but %p5, counted already)
  CHECK(types.size() == 19 + 2 + 1 + 5);
  // Each name is visited once, with the type that stands.
  std::map<std::string, unsigned> widths;
  types.forEach([&](const std::string &name, const ir::RegisterType &t) { CHECK(widths.emplace(name, t.width).second); });
  CHECK(widths.size() == types.size());
  CHECK(widths["%r3"] == 32); // (%r<12> came last)
  CHECK(widths["%r9"] == 32);
  CHECK(widths["%r11"] == 1);
  CHECK(widths["%x10"] == 64);
}

TEST_CASE("register declarations: range limit") {
  // (1 << 20 registers is the limit; the boundary itself is not expanded
  // here because that allocates a million map entries.)
  Decoded ok = decodeSnippet(".reg .b32 %r<1000>;");
  CHECK(ok.diags.empty());
  CHECK(ok.types.size() == 1000);
  CHECK(ok.types.count("%r999"));

  expectError("  .reg .b32 %r<1048577>;", 1, 13, "register range %r<1048577> is too large");
  expectError(".reg .b64 %a, %big<4294967295>, %c;", 1, 15, "register range %big<4294967295> is too large");
  // The other declarators of the statement are still recorded.
  Decoded d = decodeSnippet(".reg .b64 %a, %big<4294967295>, %c;");
  CHECK(d.types.count("%a"));
  CHECK(d.types.count("%c"));
  CHECK_FALSE(d.types.count("%big0"));
  // Only .reg declarations name registers.
  Decoded other = decodeSnippet(".shared .b32 %s<2000000>;\n.local .b8 buf[16];");
  CHECK(other.diags.empty());
  CHECK(other.types.empty());
}

} // TEST_SUITE

TEST_CASE("error: every form message of the neighbours and shf's modifier order") {
  expectError("shf.wrap.l.b32 %r1, %r2, %r3, %r4;", 1, 1,
              "invalid form 'shf.wrap.l.b32': the direction comes before the mode: write 'shf.l.wrap'");
  expectError("shf.clamp.r.b32 %r1, %r2, %r3, %r4;", 1, 1,
              "invalid form 'shf.clamp.r.b32': the direction comes before the mode: write 'shf.r.clamp'");
  expectError("bmsk.b32 %r1, %r2, %r3;", 1, 1, "invalid form 'bmsk.b32': bmsk needs exactly one mode, .clamp or .wrap");
  expectError("szext.clamp.wrap.u32 %r1, %r2, %r3;", 1, 1,
              "invalid form 'szext.clamp.wrap.u32': szext needs exactly one mode, .clamp or .wrap");
  expectError("bmsk.wrap.b64 %r1, %r2, %r3;", 1, 1, "invalid form 'bmsk.wrap.b64': bmsk is .b32 only");
  expectError("szext.wrap.b32 %r1, %r2, %r3;", 1, 1, "invalid form 'szext.wrap.b32': szext takes .u32 or .s32");
  expectError("bfind.b32 %r1, %r2;", 1, 1, "invalid form 'bfind.b32': bfind takes .u32, .s32, .u64 or .s64");
  expectError("bfind.clamp.u32 %r1, %r2;", 1, 1,
              "invalid form 'bfind.clamp.u32': unexpected modifier '.clamp' (expected .shiftamt)");
  expectError("bfe.b32 %r1, %r2, %r3, %r4;", 1, 1, "invalid form 'bfe.b32': bfe takes .u32, .s32, .u64 or .s64");
  expectError("prmt.b64 %r1, %r2, %r3, %r4;", 1, 1, "invalid form 'prmt.b64': prmt is .b32 only");
  expectError("fns.b64 %r1, %r2, %r3, %r4;", 1, 1, "invalid form 'fns.b64': fns is .b32 only");
  expectError("popc.u32 %r1, %r2;", 1, 1, "invalid form 'popc.u32': popc takes .b32 or .b64");
  expectError("prmt.xyz.b32 %r1, %r2, %r3, %r4;", 1, 1,
              "invalid form 'prmt.xyz.b32': unexpected modifier '.xyz' (prmt modes: .f4e .b4e .rc8 .ecl .ecr .rc16, "
              "after .b32)");
  expectError("shl.u32 %r1, %r2, %r3;", 1, 1, "invalid form 'shl.u32': shl takes .b16, .b32 or .b64");
}

TEST_SUITE("decoder") {

TEST_CASE("extended-precision, 24-bit, mad.hi/.wide, packing moves and setp.xor decode") {
  // The carry flag is an implicit operand: a destination after d (.cc), a
  // source after b (addc/subc), always the same register.
  ir::Instruction a = decodeOk("add.cc.u32 %r1, %r2, %r3;");
  CHECK(a.form.name() == "add.cc.u32");
  REQUIRE(a.dsts.size() == 2);
  CHECK(a.dsts[1].reg == ir::kCarryFlagRegister);
  CHECK(a.srcs.size() == 2);
  ir::Instruction c = decodeOk("subc.cc.s32 %r1, %r2, 7;");
  CHECK(c.form.name() == "subc.cc.u32");
  REQUIRE(c.srcs.size() == 3);
  CHECK(c.srcs[1].isImm());
  CHECK(c.srcs[2].reg == ir::kCarryFlagRegister);
  CHECK(decodeOk("addc.u32 %r1, %r2, %r3;").dsts.size() == 1);
  CHECK(decodeOk("mul24.hi.s32 %r1, %r2, %r3;").form.name() == "mul24.hi.s32");
  CHECK(decodeOk("mad24.lo.u32 %r1, %r2, %r3, %r4;").form.name() == "mad24.lo.u32");
  CHECK(decodeOk("mad.hi.s32 %r1, %r2, %r3, %r4;").form.name() == "mad.hi.s32");
  ir::Instruction w = decodeOk("mad.wide.u32 %rd1, %r2, %r3, %rd4;");
  CHECK(w.form.srcWidth(2) == 64);
  CHECK(w.form.dstWidth(0) == 64);
  ir::Instruction p = decodeOk("mov.b64 %rd1, {%r2, %r3};");
  CHECK(p.form.name() == "mov.pack.b64");
  REQUIRE(p.srcs.size() == 2);
  CHECK(p.srcs[1].reg == "%r3");
  ir::Instruction u = decodeOk("mov.b32 {%rs1, %rs2}, %r3;");
  CHECK(u.form.name() == "mov.unpack.b32");
  REQUIRE(u.dsts.size() == 2);
  CHECK(u.dsts[0].reg == "%rs1");
  CHECK(u.form.dstWidth(1) == 16);
  CHECK(decodeOk("setp.ge.xor.s32 %p1, %r1, %r2, %p2;").form.name() == "setp.ge.xor.s32");
}

TEST_CASE("error: extended-precision, 24-bit and packing forms") {
  CHECK(decodeOk("add.cc.u64 %rd1, %rd2, %rd3;").form.name() == "add.cc.u64");
  CHECK(decodeOk("subc.cc.s64 %rd1, %rd2, %rd3;").form.name() == "subc.cc.u64");
  CHECK(decodeOk("madc.hi.cc.u64 %rd1, %rd2, %rd3, %rd4;").form.name() == "madc.hi.cc.u64");
  CHECK(decodeOk("madc.hi.s64 %rd1, %rd2, %rd3, %rd4;").form.name() == "madc.hi.s64");
  expectError("add.cc.u16 %rs1, %rs2, %rs3;", 1, 1,
              "unsupported form 'add.cc.u16': extended-precision (carry) arithmetic is supported for .u32, .s32, .u64 "
              "and .s64");
  expectError("addc.sat.s32 %r1, %r2, %r3;", 1, 1, "invalid form 'addc.sat.s32': unexpected modifier '.sat'");
  expectError("add.sat.s32 %r1, %r2, %r3;", 1, 1, "unsupported form 'add.sat.s32': .sat is not supported");
  expectError("mad24.hi.sat.s32 %r1, %r2, %r3, %r4;", 1, 1,
              "invalid form 'mad24.hi.sat.s32': mad24 needs exactly one of .lo, .hi (.sat is not supported)");
  expectError("mul24.lo.u64 %rd1, %rd2, %rd3;", 1, 1, "invalid form 'mul24.lo.u64': mul24 takes .u32 or .s32");
  expectError("mad.wide.u64 %rd1, %rd2, %rd3, %rd4;", 1, 1,
              "unsupported form 'mad.wide.u64': mad.wide is supported for .u32 and .s32");
  expectError("mul.hi.u16 %rs1, %rs2, %rs3;", 1, 1,
              "unsupported form 'mul.hi.u16': mul.hi is supported for .u32 and .s32 (and .u64, .s64)");
  CHECK(decodeOk("mul.hi.s64 %rd1, %rd2, %rd3;").form.name() == "mul.hi.s64");
  CHECK(decodeOk("mul.lo.s16 %rs1, %rs2, %rs3;").form.name() == "mul.lo.u16");
  // Extended-precision multiply-add: the carry flag is an implicit last source / second destination.
  const ir::Instruction m = decodeOk("madc.hi.cc.s32 %r1, %r2, %r3, %r4;");
  CHECK(m.form.name() == "madc.hi.cc.s32");
  CHECK(m.srcs.size() == 4);
  CHECK(m.dsts.size() == 2);
  CHECK(decodeOk("mad.lo.cc.s32 %r1, %r2, %r3, %r4;").form.name() == "mad.lo.cc.u32");
  expectError("madc.b32 %r1, %r2, %r3;", 1, 1,
              "invalid form 'madc.b32': madc needs .lo or .hi (madc.lo[.cc].u32, madc.hi[.cc].u32)");
  CHECK(decodeOk("madc.lo.cc.s64 %rd1, %rd2, %rd3, %rd4;").form.name() == "madc.lo.cc.u64"); // (cuda-fixnum)
  CHECK(decodeOk("setp.lt.s16 %p1, %rs2, %rs3;").form.name() == "setp.lt.s16");
  CHECK(decodeOk("mad.lo.s64 %rd1, %rd2, %rd3, %rd4;").form.name() == "mad.lo.u64");
  CHECK(decodeOk("mul.hi.u64 %rd1, %rd2, 7;").form.name() == "mul.hi.u64");
  expectError("mov.b64 %rd1, {%r1, %r2, %r3};", 1, 1,
              "invalid form 'mov.b64': the vector operand needs exactly two halves, {lo, hi}");
  expectError("mov.u16 %rs1, {%rs2, %rs3};", 1, 1,
              "invalid form 'mov.u16': packing and unpacking moves take .b32 (two .b16 halves) or .b64 (two .b32 halves)");
  expectError("setp.lt.nand.s32 %p1, %r1, %r2, %p2;", 1, 1,
              "invalid form 'setp.lt.nand.s32': the combiner must be .and, .or or .xor");
  // lo, ls, hi, hs are the unsigned operators: ptxas refuses them on .s types.
  expectError("setp.hs.s32 %p1, %r1, %r2;", 1, 1,
              "invalid form 'setp.hs.s32': .hs compares unsigned values: use it with .u16, .u32 or .u64 (lt, le, "
              "gt, ge with .s types)");
  expectError("setp.lo.and.s64 %p1, %rd1, %rd2, %p2;", 1, 1,
              "invalid form 'setp.lo.and.s64': .lo compares unsigned values: use it with .u16, .u32 or .u64 (lt, "
              "le, gt, ge with .s types)");
  CHECK(decodeOk("setp.hs.u32 %p1, %r1, %r2;").form.name() == decodeOk("setp.ge.u32 %p1, %r1, %r2;").form.name());
}

TEST_CASE("error: cvt between integer types: 8-bit results, one width, .sat where it can clamp") {
  CHECK(decodeOk("cvt.u8.u32 %rs1, %r1;").form.name() == "cvt.u8.u32");
  CHECK(decodeOk("cvt.s8.s64 %rs1, %rd1;").form.name() == "cvt.s8.u64"); // the source's sign does not matter
  CHECK(decodeOk("cvt.u8.s8 %rs1, %rs2;").form.name() == "cvt.u8.u16");
  CHECK(decodeOk("cvt.u32.s32 %r1, %r2;").form.name() == "mov.b32");     // one width: the bits do not change
  CHECK(decodeOk("cvt.s64.u64 %rd1, %rd2;").form.name() == "mov.b64");
  CHECK(decodeOk("cvt.sat.u8.s32 %rs1, %r1;").form.name() == "cvt.sat.u8.s32");
  CHECK(decodeOk("cvt.sat.s32.u32 %r1, %r2;").form.name() == "cvt.sat.s32.u32");
  CHECK(decodeOk("cvt.sat.u16.s8 %rs1, %rs2;").form.name() == "cvt.sat.u16.s8");
  expectError("cvt.sat.u32.u16 %r1, %rs1;", 1, 1,
              "invalid form 'cvt.sat.u32.u16': .sat changes no value: every .u16 fits in .u32");
  expectError("cvt.sat.s64.s32 %rd1, %r1;", 1, 1,
              "invalid form 'cvt.sat.s64.s32': .sat changes no value: every .s32 fits in .s64");
  expectError("cvt.rn.sat.u32.u16 %r1, %rs1;", 1, 1,
              "unsupported form 'cvt.rn.sat.u32.u16': only integer conversions are supported (floating point is not "
              "translated yet)");
}

} // TEST_SUITE

TEST_CASE("video arithmetic: every form decodes to itself, types canonicalised where they do not change the bits") {
  unsigned forms = 0;
  for (const ir::Form &f : ir::allForms()) {
    if (!f.isVideoArith())
      continue;
    ++forms;
    const std::string name = f.name();
    INFO(name);
    ir::Instruction inst = decodeOk(name + " %r1, %r2, %r3" + (f.numSrcs() == 3 ? ", %r4;" : ";"));
    CHECK(inst.form == f);
  }
  CHECK(forms == 268);
  unsigned sets = 0;
  for (const ir::Form &f : ir::allForms())
    if (f.opcode == ir::Opcode::Vset) {
      ++sets;
      CHECK(decodeOk(f.name() + " %r1, %r2, %r3" + (f.numSrcs() == 3 ? ", %r4;" : ";")).form == f);
    }
  CHECK(sets == 96);
  expectError("vset.u32.u32.lo %r1, %r2, %r3;", 1, 1,
              "invalid form 'vset.u32.u32.lo': the comparison must be .eq, .ne, .lt, .le, .gt or .ge");
  // Without .sat or a secondary min/max d's type changes no bit; for vadd and
  // vsub then neither do a's and b's.
  CHECK(decodeOk("vadd.s32.s32.u32.add %r1, %r2, %r3, %r4;").form.name() == "vadd.u32.u32.u32.add");
  CHECK(decodeOk("vmin.s32.s32.u32 %r1, %r2, %r3;").form.name() == "vmin.u32.s32.u32");
  CHECK(decodeOk("vmax.s32.s32.u32.max %r1, %r2, %r3, %r4;").form.name() == "vmax.s32.s32.u32.max");
  CHECK(decodeOk("vsub.u32.s32.s32.sat %r1, %r2, %r3;").form.name() == "vsub.u32.s32.s32.sat");
  expectError("vadd.u32.u32 %r1, %r2, %r3;", 1, 1,
              "invalid form 'vadd.u32.u32': expected vadd.dtype.atype.btype{.sat}{.add|.min|.max}");
  expectError("vmin.u32.u32.u64 %r1, %r2, %r3;", 1, 1, "invalid form 'vmin.u32.u32.u64': b's type must be .u32 or .s32");
  expectError("vabsdiff.u32.u32.u32.sat.mul %r1, %r2, %r3, %r4;", 1, 1,
              "invalid form 'vabsdiff.u32.u32.u32.sat.mul': the secondary operation must be .add, .min or .max");
  // Selectors parse (they were a syntax error). On a and b they become a bfe
  // of the operand's type into a fresh register first.
  {
    ::ptx::ParseResult pr = ::ptx::parseSnippet("vadd.u32.s32.u32.sat %r1, %r2.b3, %r3.h1;");
    REQUIRE(pr.ok());
    const auto *in = std::get_if<::ptx::ast::Instruction>(&pr.module.functions.at(0).body->statements.at(0));
    REQUIRE(in);
    unsigned counter = 0;
    const std::vector<::ptx::ast::Instruction> parts = ir::expandOperandSelectors(*in, counter);
    REQUIRE(parts.size() == 3);
    CHECK(parts[0].text == "bfe.s32 %__sel0, %r2, 24, 8 (%r2.b3)");
    CHECK(parts[1].text == "bfe.u32 %__sel1, %r3, 16, 16 (%r3.h1)");
    CHECK(parts[2].operands[1].name == "%__sel0");
    CHECK(parts[2].operands[2].name == "%__sel1");
    CHECK(counter == 2);
  }
  // The data merge: the operation into a fresh register without c, .sat's
  // clamp to the part's range (signed by dtype), a bfi into c.
  {
    ::ptx::ParseResult pr = ::ptx::parseSnippet("@%p1 vsub.s32.u32.u32.sat %r1.b2, %r2, %r3.h1, %r4;");
    REQUIRE(pr.ok());
    const auto *in = std::get_if<::ptx::ast::Instruction>(&pr.module.functions.at(0).body->statements.at(0));
    REQUIRE(in);
    unsigned counter = 0;
    const std::vector<::ptx::ast::Instruction> parts = ir::expandOperandSelectors(*in, counter);
    REQUIRE(parts.size() == 5);
    CHECK(parts[0].text == "bfe.u32 %__sel0, %r3, 16, 16 (%r3.h1)");
    CHECK(parts[1].operands.size() == 3);
    CHECK(parts[1].operands[0].name == "%__sel1");
    CHECK(parts[2].text == "max.s32 %__sel1, %__sel1, -128 (%r1.b2)");
    CHECK(parts[3].text == "min.s32 %__sel1, %__sel1, 127 (%r1.b2)");
    CHECK(parts[4].text == "bfi.b32 %r1, %__sel1, %r4, 16, 8 (%r1.b2)");
    CHECK(parts[4].guard.has_value());
  }
  expectError("vmin.s32.s32.s32.max %r1.h0, %r2, %r3, %r4;", 1, 1,
              "invalid form 'vmin.s32.s32.s32.max': the data merge into d.h0 takes no secondary operation");
  expectError("vmin.s32.s32.s32 %r1.h0, %r2, %r3;", 1, 1,
              "invalid form 'vmin.s32.s32.s32': the data merge into d.h0 needs c, the value merged into: d.sel, a, b, c");
  expectError("add.u32 %r1, %r2.b0, %r3;", 1, 1, "invalid form 'add.u32': the selector '.b0' is only valid on video instructions");
}

TEST_CASE("video shifts: every form decodes to itself, types canonicalised where they do not change the bits") {
  for (const ir::Form &f : ir::allForms()) {
    if (!f.isVideoShift())
      continue;
    const std::string name = f.name();
    INFO(name);
    ir::Instruction inst = decodeOk(name + " %r1, %r2, %r3" + (f.numSrcs() == 3 ? ", %r4;" : ";"));
    CHECK(inst.form == f);
    CHECK(inst.srcs.size() == f.numSrcs());
  }
  // Without .sat the destination type, and for vshl a's type, change no bit.
  CHECK(decodeOk("vshl.s32.s32.u32.clamp.add %r1, %r2, 1, %r4;").form.name() == "vshl.u32.u32.u32.clamp.add");
  CHECK(decodeOk("vshr.s32.s32.u32.wrap %r1, %r2, %r3;").form.name() == "vshr.u32.s32.u32.wrap");
  CHECK(decodeOk("vshr.s32.u32.u32.wrap %r1, %r2, %r3;").form.name() == "vshr.u32.u32.u32.wrap");
  // With .sat or a secondary .min/.max both types matter.
  CHECK(decodeOk("vshl.s32.u32.u32.sat.clamp %r1, %r2, %r3;").form.name() == "vshl.s32.u32.u32.sat.clamp");
  CHECK(decodeOk("vshr.s32.s32.u32.wrap.max %r1, %r2, %r3, %r4;").form.name() == "vshr.s32.s32.u32.wrap.max");
  expectError("vshl.u32.u32.u32.sat %r1, %r2, %r3;", 1, 1,
              "invalid form 'vshl.u32.u32.u32.sat': expected the mode, .clamp or .wrap, after the types and .sat");
  expectError("vshl.u32.u32.s32.clamp %r1, %r2, %r3;", 1, 1,
              "invalid form 'vshl.u32.u32.s32.clamp': b's type must be .u32");
  expectError("vshl.u32.u32.u32 %r1, %r2, %r3;", 1, 1,
              "invalid form 'vshl.u32.u32.u32': expected vshl.dtype.atype.u32{.sat}.mode{.add|.min|.max}");
  expectError("vshl.u32.u32.u32.clamp.sub %r1, %r2, %r3, %r4;", 1, 1,
              "invalid form 'vshl.u32.u32.u32.clamp.sub': the secondary operation must be .add, .min or .max");
  expectError("vshl.u32.u32.u32.clamp.add %r1, %r2, %r3;", 1, 1,
              "'vshl.u32.u32.u32.clamp.add' expects 4 operands, got 3");
}

TEST_CASE("vmad: every form decodes to itself; the operands' negations pick the form") {
  unsigned forms = 0;
  for (const ir::Form &f : ir::allForms()) {
    if (f.opcode != ir::Opcode::Vmad)
      continue;
    ++forms;
    // The form's name spells the negation as a suffix; PTX writes it on the operands.
    std::string name = f.name();
    std::string a = "%r2", c = "%r4";
    if (const size_t at = name.find(".neg_ab"); at != std::string::npos) {
      name.erase(at);
      a = "-%r2";
    } else if (const size_t at2 = name.find(".neg_c"); at2 != std::string::npos) {
      name.erase(at2);
      c = "-%r4";
    }
    INFO(f.name());
    const ir::Instruction inst = decodeOk(name + " %r1, " + a + ", %r3, " + c + ";");
    CHECK(inst.form == f);
    CHECK(inst.srcs.size() == 3);
  }
  CHECK(forms == 96);
  // dtype changes no bit: the final signedness follows the ISA's rule.
  CHECK(decodeOk("vmad.s32.u32.u32 %r1, %r2, %r3, %r4;").form.name() == "vmad.u32.u32.u32");
  CHECK(decodeOk("vmad.u32.u32.u32 %r1, %r2, -%r3, %r4;").form.name() == "vmad.s32.u32.u32.neg_ab");
  CHECK(decodeOk("vmad.u32.u32.u32 %r1, -%r2, -%r3, %r4;").form.name() == "vmad.u32.u32.u32"); // they cancel
  CHECK(decodeOk("vmad.s32.s32.u32.po.sat.shr15 %r1, %r2, %r3, %r4;").form.name() == "vmad.s32.s32.u32.po.sat.shr15");
  expectError("vmad.s32.s32.s32 %r1, -%r2, %r3, -%r4;", 1, 1,
              "invalid form 'vmad.s32.s32.s32': vmad negates either the product a*b or c, not both");
  expectError("vmad.u32.u32.u32.po %r1, %r2, %r3, -%r4;", 1, 1,
              "invalid form 'vmad.u32.u32.u32.po': the sources of vmad.po cannot be negated");
  expectError("vmad.u32.u32.u32.shr7.sat %r1, %r2, %r3, %r4;", 1, 1,
              "invalid form 'vmad.u32.u32.u32.shr7.sat': unexpected modifier '.sat' (expected .po, .sat, .shr7 or "
              ".shr15, in that order)");
  expectError("vmad.u32.u32.u32 %r1.h0, %r2, %r3, %r4;", 1, 1,
              "invalid form 'vmad.u32.u32.u32': vmad has no data merge: its destination takes no selector");
  expectError("add.u32 %r1, -%r2, %r3;", 1, 14, "invalid source operand '-%r2' for 'add.u32'");
}
