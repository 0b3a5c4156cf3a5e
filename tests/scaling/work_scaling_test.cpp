// Near-linear translation (issue 18): doubling a generated kernel (or a
// module of many functions and variables, or of many variables in a table of
// addresses) must not more than triple the work of translating it. Work is
// counted, not timed: the bytes and the number of allocations the
// translation makes (this program replaces the global operator new to count
// them), and the steps of the size-dependent loops of the analyses
// (kernel::workSteps; Kernel::variable's scan counts too). A dense
// block x block or block x register table, a copy per block of something
// kernel-sized, grows four times when the kernel doubles; so does any
// per-statement scan that allocates. Built only without sanitizers (they
// replace operator new themselves).
//
// usage: work_scaling_test   (exit 0: every step at most 3x; 1 otherwise)
#include "driver/module_translation.hpp"
#include "kernel/analysis/work_counter.hpp"
#include "isel/cost_model.hpp"
#include "targets/target_info.hpp"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <new>
#include <string>

namespace {
std::atomic<unsigned long long> gBytes{0}, gCount{0};
}

void *operator new(std::size_t n) {
  gBytes += n;
  ++gCount;
  if (void *p = std::malloc(n ? n : 1))
    return p;
  throw std::bad_alloc();
}
void *operator new[](std::size_t n) { return operator new(n); }
void *operator new(std::size_t n, std::align_val_t a) {
  gBytes += n;
  ++gCount;
  const std::size_t al = static_cast<std::size_t>(a);
  if (void *p = std::aligned_alloc(al, (n + al - 1) / al * al))
    return p;
  throw std::bad_alloc();
}
void *operator new[](std::size_t n, std::align_val_t a) { return operator new(n, a); }
void operator delete(void *p) noexcept { std::free(p); }
void operator delete[](void *p) noexcept { std::free(p); }
void operator delete(void *p, std::size_t) noexcept { std::free(p); }
void operator delete[](void *p, std::size_t) noexcept { std::free(p); }
void operator delete(void *p, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void *p, std::align_val_t) noexcept { std::free(p); }
void operator delete(void *p, std::size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void *p, std::size_t, std::align_val_t) noexcept { std::free(p); }

namespace {

// One kernel of `sections` sections. Each section computes new values from
// earlier ones (live ranges that cross many blocks), branches around part of
// itself on a per-lane condition, sometimes loops, and sometimes sends lanes
// to the end early: blocks, registers, branches and live values all grow
// with the kernel.
std::string kernel(unsigned sections) {
  std::string s = ".version 8.0\n.target sm_80\n.address_size 64\n"
                  ".visible .entry big(.param .u64 out, .param .u32 n)\n{\n";
  s += ".reg .pred %p<" + std::to_string(sections + 2) + ">;\n";
  s += ".reg .b32 %r<" + std::to_string(4 * sections + 20) + ">;\n.reg .b64 %rd<4>;\n";
  s += "ld.param.u64 %rd1, [out];\nld.param.u32 %r1, [n];\nmov.u32 %r2, %tid.x;\n"
       "mul.wide.u32 %rd2, %r2, 4;\nadd.s64 %rd3, %rd1, %rd2;\nmov.u32 %r10, %r2;\n";
  for (unsigned i = 0; i < sections; ++i) {
    const std::string I = std::to_string(i);
    const unsigned v = 4 * i + 11; // this section's registers: v .. v+3
    auto r = [](unsigned x) { return "%r" + std::to_string(x); };
    const std::string prev = r(v - 4 < 10 ? 10 : v - 4), far = r(i >= 8 ? v - 32 : 10);
    s += "add.s32 " + r(v) + ", " + prev + ", " + far + ";\n";
    s += "shf.l.wrap.b32 " + r(v + 1) + ", " + r(v) + ", " + prev + ", " + std::to_string(i % 31 + 1) + ";\n";
    s += "setp.gt.u32 %p" + I + ", " + r(v + 1) + ", %r1;\n";
    s += "@%p" + I + " bra $Lskip" + I + ";\n";
    s += "xor.b32 " + r(v) + ", " + r(v) + ", " + r(v + 1) + ";\n";
    s += "lop3.b32 " + r(v) + ", " + r(v) + ", " + far + ", " + prev + ", 0x96;\n";
    s += "$Lskip" + I + ":\n";
    if (i % 7 == 3) { // a loop
      s += "mov.u32 " + r(v + 2) + ", 0;\n$Lloop" + I + ":\n";
      s += "add.s32 " + r(v) + ", " + r(v) + ", " + r(v + 2) + ";\n";
      s += "add.s32 " + r(v + 2) + ", " + r(v + 2) + ", 1;\n";
      s += "setp.lt.u32 %p" + std::to_string(sections) + ", " + r(v + 2) + ", 3;\n";
      s += "@%p" + std::to_string(sections) + " bra $Lloop" + I + ";\n";
    }
    if (i % 11 == 5) { // some lanes leave early
      s += "setp.eq.u32 %p" + std::to_string(sections + 1) + ", " + r(v) + ", " + std::to_string(i) + ";\n";
      s += "@%p" + std::to_string(sections + 1) + " bra $Lend;\n";
    }
    s += "mov.u32 " + r(v + 3) + ", " + r(v) + ";\n";
  }
  s += "$Lend:\nst.global.u32 [%rd3], %r" + std::to_string(4 * (sections - 1) + 14) + ";\nret;\n}\n";
  return s;
}

// A module of `n` variables and `n` functions, and a kernel calling each
// function once: calls are inlined, and each inlined body is scoped against
// the module's variables (a block register may shadow one), so work per
// call that walks the module grows four times when the module doubles.
std::string calls(unsigned n) {
  std::string s = ".version 8.0\n.target sm_80\n.address_size 64\n";
  for (unsigned i = 0; i < n; ++i)
    s += ".global .align 4 .u32 g" + std::to_string(i) + ";\n";
  for (unsigned i = 0; i < n; ++i)
    s += ".func (.param .b32 r) f" + std::to_string(i) +
         "(.param .b32 x)\n{\n.reg .b32 %r<3>;\nld.param.u32 %r1, [x];\nadd.u32 %r2, %r1, " + std::to_string(i) +
         ";\nst.param.b32 [r], %r2;\nret;\n}\n";
  s += ".visible .entry calls(.param .u64 out)\n{\n.reg .b32 %r<2>;\n.reg .b64 %rd<2>;\n"
       "ld.param.u64 %rd1, [out];\nmov.u32 %r1, %tid.x;\n";
  for (unsigned i = 0; i < n; ++i) {
    const std::string I = std::to_string(i);
    s += "{\n.param .b32 a" + I + ";\n.param .b32 b" + I + ";\nst.param.b32 [a" + I + "], %r1;\ncall.uni (b" + I +
         "), f" + I + ", (a" + I + ");\nld.param.b32 %r1, [b" + I + "];\n}\n";
  }
  s += "st.global.u32 [%rd1], %r1;\nret;\n}\n";
  return s;
}

// `n` initialised variables and a table of their addresses, which a kernel
// reads: the table brings every variable into the kernel's object, each
// looked up by name.
std::string addressTable(unsigned n) {
  std::string s = ".version 8.0\n.target sm_80\n.address_size 64\n";
  for (unsigned i = 0; i < n; ++i)
    s += ".global .align 4 .u32 v" + std::to_string(i) + " = " + std::to_string(i) + ";\n";
  s += ".global .align 8 .u64 table[" + std::to_string(n) + "] = {";
  for (unsigned i = 0; i < n; ++i)
    s += (i ? ", generic(v" : "generic(v") + std::to_string(i) + ")";
  s += "};\n.visible .entry lookup(.param .u64 out)\n{\n.reg .b32 %r<2>;\n.reg .b64 %rd<4>;\n"
       "ld.param.u64 %rd1, [out];\nmov.u64 %rd2, table;\nld.global.u64 %rd3, [%rd2];\nld.u32 %r1, [%rd3];\n"
       "st.global.u32 [%rd1], %r1;\nret;\n}\n";
  return s;
}

struct Work {
  unsigned long long bytes, count, steps;
};

Work translate(std::string (*generate)(unsigned), unsigned size, p2a::cost::CostModel &costs) {
  const std::string text = generate(size);
  const unsigned long long b0 = gBytes, c0 = gCount, s0 = p2a::kernel::workSteps;
  p2a::module::ModuleResult r = p2a::module::translateModule(text, p2a::targets::defaultTarget(), costs);
  const Work w{gBytes - b0, gCount - c0, p2a::kernel::workSteps - s0};
  if (!r.ok) {
    std::fprintf(stderr, "the generated module of size %u does not translate:\n", size);
    for (const p2a::Diagnostic &d : r.diagnostics)
      std::fprintf(stderr, "  %u:%u: %s\n", d.loc.line, d.loc.col, d.message.c_str());
    std::exit(1);
  }
  return w;
}

} // namespace

int main() {
  p2a::cost::CostModel costs;
  translate(kernel, 50, costs); // start-up work (tables, MC's target) off the books
  bool ok = true;
  // (Each inlined call ends a block: the calls start past the blocks below
  // which lane waiting is analysed exactly, in blocks x blocks steps,
  // kernel::kMaxWaitingAnalysisBlocks.)
  const struct {
    const char *what;
    std::string (*generate)(unsigned);
    unsigned first;
  } shapes[] = {{"sections", kernel, 250},
                {"variables, functions and calls", calls, 300},
                {"variables in an address table", addressTable, 1000}};
  for (const auto &shape : shapes) {
    Work prev = translate(shape.generate, shape.first, costs);
    for (unsigned size = 2 * shape.first; size <= 8 * shape.first; size *= 2) {
      const Work w = translate(shape.generate, size, costs);
      const double bytes = double(w.bytes) / double(prev.bytes), count = double(w.count) / double(prev.count),
                   steps = double(w.steps) / double(prev.steps);
      std::printf("%u -> %u %s: %.2fx bytes allocated (%llu), %.2fx allocations (%llu), %.2fx counted loop "
                  "steps (%llu)\n",
                  size / 2, size, shape.what, bytes, w.bytes, count, w.count, steps, w.steps);
      if (bytes > 3.0 || count > 3.0 || steps > 3.0) {
        std::printf("  more than 3x: some step is superlinear in the module's size\n");
        ok = false;
      }
      prev = w;
    }
  }
  return ok ? 0 : 1;
}
