#include "tools/allocator_policy.hpp"

#include <cstddef>
#include <initializer_list>
#include <sys/types.h>

// jemalloc's settings, read at its start-up where it is the malloc
// (CMakeLists.txt links it; elsewhere an unread variable).
// - One arena for all threads, and freed pages returned 250 ms after they
//   are last used. With jemalloc's defaults (an arena per thread, pages kept
//   10 s) a module's peak memory was 7% above glibc's over the corpus
//   (KeyHunt, ccminer keccak: up to 1.4x). 20 ms (run 22) kept memory
//   lowest, but on this project's virtual machines a 4 KiB page fault costs
//   about 10 us, and each pass over a big kernel faulted back in the pages
//   the one before it had freed (KeyHunt: 690,000 faults for a 300 MiB
//   peak; ptxas 52,000 for 101 MiB). Over 30 corpus modules, 20 -> 250 ms:
//   CPU summed 60.6 -> 51.1 s, peak memory summed +4% (1000 ms: 46.7 s,
//   +7%, wildkeccak +15%); bench/README.md run 23.
// - No transparent huge pages (thp:always with the process's THP switch on
//   only once translating started): they cut the faults, and took KeyHunt
//   from 19.9 to 14.8-17.8 s of CPU, but sha256 went from 85 to 89-117 ms and
//   peak memory rose by up to 9 MiB (bench/README.md run 23): a huge page
//   is zeroed whole, and freed pages returned to the host must be faulted
//   back in there first.
extern "C" {
const char *malloc_conf = "narenas:1,dirty_decay_ms:250,muzzy_decay_ms:0";
// jemalloc's control interface where jemalloc is the malloc (weak: null
// under glibc).
int mallctl(const char *name, void *oldp, size_t *oldlenp, void *newp, size_t newlen) __attribute__((weak));
}

namespace p2a::allocator {

void keepFreedPages() {
  if (!mallctl)
    return;
  ssize_t never = -1;
  for (const char *key : {"arena.4096.dirty_decay_ms", "arena.4096.muzzy_decay_ms", // (4096: every arena)
                          "arenas.dirty_decay_ms", "arenas.muzzy_decay_ms"})     // (and any made later)
    mallctl(key, nullptr, nullptr, &never, sizeof never);
}

} // namespace p2a::allocator
