// The types of a function's PTX registers: those `.reg` declares (PTX ISA
// 5.1.1 "Register State Space"; a parameterized name `%r<100>` declares
// %r0..%r99), and those inferred from use or added by rewrites.
//
// A declared range is kept as one entry, its prefix and count, and a name
// is matched against it by its trailing digits. Expanded, each range was a
// hash node per register, made again for every inlined call (the callee's
// declarations, renamed): on KeyHunt's 80k-statement kernels, 5 MB of
// nodes and a twentieth of the translation's time making, looking up and
// freeing them.
#pragma once

#include "ptx/ptx_ir.hpp"

#include <llvm/ADT/SmallVector.h>

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>

namespace p2a::ptx {

class RegisterTypes {
public:
  // The register's type, or null if it has none. Where declarations
  // overlap (a name declared twice, or set after its range), the last one
  // made stands, as assigning to a map entry did. (Valid until the next
  // set or setRange.)
  const RegisterType *find(std::string_view name) const;
  bool count(std::string_view name) const { return find(name) != nullptr; }
  // The type of a register that has one (std::out_of_range otherwise).
  const RegisterType &at(std::string_view name) const;
  // One register's type (a declaration without range, an inference, a rewrite's fresh register).
  void set(std::string_view name, RegisterType type);
  // `prefix`0 .. `prefix`(count-1), as `.reg .type prefix<count>` declares them.
  void setRange(std::string_view prefix, uint32_t count, RegisterType type);
  // Registers given a type, each name once (kMaxDeclaredRegisters bounds
  // it), but for ranges of different prefixes that name the same register
  // (`%x<20>` and `%x1<5>` both declare %x10), which count for each.
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  // Every register with its type, in no particular order (a name declared
  // twice is visited with the type that stands).
  void forEach(const std::function<void(const std::string &, const RegisterType &)> &visit) const;

private:
  // (A declaration's place in the order they were made: the last wins.)
  struct Single {
    RegisterType type;
    uint64_t order = 0;
  };
  struct Range {
    uint32_t count = 0;
    RegisterType type;
    uint64_t order = 0;
  };
  struct NameHash {
    using is_transparent = void;
    size_t operator()(std::string_view name) const { return std::hash<std::string_view>{}(name); }
  };
  // (Hashed std::unordered_maps, not llvm::StringMaps: a StringMap's table
  // is calloc'd, and jemalloc zeroes a large calloc by returning its pages
  // to the kernel, which with the feeder and the workers running costs a
  // TLB shootdown each: a module of 500 kernels declaring 4,000 registers
  // each spent 0.3 s of system time growing such tables.)
  std::unordered_map<std::string, Single, NameHash, std::equal_to<>> singles_;
  std::unordered_map<std::string, llvm::SmallVector<Range, 1>, NameHash, std::equal_to<>> ranges_;
  // Bit n: some range's prefix is n characters long (bit 63: 63 or more),
  // so that a lookup tries only the splits of a name that can match.
  uint64_t prefixLengths_ = 0;
  uint64_t made_ = 0;
  size_t size_ = 0;
};

} // namespace p2a::ptx
