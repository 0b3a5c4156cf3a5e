// How the translator's memory allocator (jemalloc, where it is linked)
// trades memory for time: one place for its settings and the run-time
// switch the driver flips once it knows which command runs.
#pragma once

namespace p2a::allocator {

// For the commands that prove rules (Z3): keep freed pages rather than
// return them after 250 ms. Those commands allocate and free far more than a
// translation; returning pages made `rules --verify` fault 120,000 pages a
// second (60 -> 74 s, 28 s of it in the kernel).
void keepFreedPages();

} // namespace p2a::allocator
