// PTX abstract syntax tree. Every node carries the 1-based line and column of
// its first character so that later stages (decoder, translator, report) can
// point at the exact source text. The tree is deliberately syntactic: any
// opcode with any modifiers parses; meaning is given by ptx/ptx_ir.hpp.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace ptx::ast {

struct SourceLoc {
  uint32_t line = 0; // 1-based; 0 = unknown
  uint32_t col = 0;  // 1-based, in bytes
};

// One operand in its PTX spelling (PTX ISA 9.x, "Operands").
struct Operand {
  enum class Kind {
    Register,  // %r1, %rd2, %p1, %0 (inline asm), plain identifiers naming registers; `element` may be set
    Symbol,    // an identifier used as an address-taking name or label (bra target, global variable)
    Immediate, // integer or float-bit literal; see imm_*
    Vector,    // {a, b, ...}; elems holds the members
    Address,   // [base+offset] or [imm]; base in `name` (empty for absolute), offset in `offset`
    Sink,      // _
    Pair,      // d|p ; `name` = d, `name2` = p
  };
  enum class ImmKind { Int, F32Bits, F64Bits };

  Kind kind = Kind::Register;
  SourceLoc loc;
  std::string text;     // the exact source spelling, for diagnostics
  std::string name;     // register / symbol / address base / first of a pair
  std::string name2;    // second of a pair
  char element = 0;     // vector element suffix: 'x','y','z','w' ('r','g','b','a' normalised to x,y,z,w)
  std::string selector; // video instructions' byte/half-word selector: "b0".."b3", "h0", "h1" (§9.7.18.1)
  bool negated = false; // `!%p` as a source operand
  bool minus = false;   // `-%r` as a source operand (vmad only)
  // Immediates: the two's complement bit pattern in 64 bits. `imm_unsigned`
  // is set for a `U` suffix; `imm_negative` when written with a leading '-'.
  ImmKind imm_kind = ImmKind::Int;
  uint64_t imm_bits = 0;
  bool imm_unsigned = false;
  bool imm_negative = false;
  int64_t offset = 0;       // Address: byte offset (may be negative)
  std::vector<Operand> elems; // Vector members
};

struct Guard {
  SourceLoc loc;
  bool negated = false; // @!p
  std::string pred;     // "%p1"
};

struct Instruction {
  SourceLoc loc;                  // of the opcode (or of the guard when present)
  std::optional<Guard> guard;
  std::string opcode;             // "shf"
  std::vector<std::string> modifiers; // {"l","wrap","b32"} without dots, in source order
  SourceLoc opcode_loc;
  std::vector<Operand> operands;
  std::string text;               // the statement's source text, without the trailing ';'
};

struct Label {
  SourceLoc loc;
  std::string name;
};

// Variable / register declaration: `.reg .b32 %r<10>;`, `.shared .align 4 .b8 buf[256];`,
// `.global .u32 tab[4] = {1,2,3,4};`, `.const .v2 .f32 c;`
struct Declarator {
  SourceLoc loc;
  std::string name;
  std::optional<uint32_t> range;      // %r<N>: N registers %r0..%r(N-1)
  std::vector<std::optional<uint64_t>> dims; // [N] (nullopt for [])
  std::string initializer;            // raw text after '=' (empty when absent)
};

struct Declaration {
  SourceLoc loc;
  std::string space;                  // "reg", "shared", "local", "const", "global", "param", "tex", ...
  std::vector<std::string> linkage;   // "extern", "visible", "weak", "common"
  std::optional<uint32_t> align;      // .align N
  std::optional<uint32_t> vector;     // .v2 / .v4 / .v8
  bool ptr = false;                   // .ptr (param attribute)
  std::vector<std::string> attributes; // other dot words, e.g. "global" in `.ptr.global`, ".attribute(...)" text
  std::string type;                   // "b32", "u64", "pred", "f32", ...
  std::vector<Declarator> declarators;
};

// `.loc 1 42 7`, `.file 1 "a.cu"`, `.pragma "nounroll";`, `.section ...{...}`,
// performance directives `.maxntid 256, 1, 1` and any other directive kept verbatim.
struct Directive {
  SourceLoc loc;
  std::string name;                   // without the dot: "loc", "pragma", "maxntid", ...
  std::string text;                   // arguments as written
};

struct Block;
using Statement = std::variant<Instruction, Label, Declaration, Directive, Block>;

struct Block {
  SourceLoc loc;
  std::vector<Statement> statements;
};

struct Function {
  SourceLoc loc;
  bool is_entry = false;              // .entry vs .func
  std::vector<std::string> linkage;   // "visible", "extern", "weak"
  std::string name;
  SourceLoc name_loc;
  std::vector<Declaration> returns;   // .func (.param .b32 r) name(...)
  std::vector<Declaration> params;
  std::vector<Directive> performance; // .maxntid, .reqntid, .minnctapersm, .maxnreg, .noreturn, ...
  std::optional<Block> body;          // absent for prototypes / .extern
};

struct Module {
  std::string version;                // "8.5"
  std::vector<std::string> target;    // {"sm_90a", "debug"}
  std::optional<uint32_t> address_size;
  std::vector<Directive> directives;  // .file, .section, .pragma at module scope
  std::vector<Declaration> globals;
  std::vector<Function> functions;
};

} // namespace ptx::ast
