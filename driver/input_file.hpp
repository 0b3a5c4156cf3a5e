// Reading a PTX input with a size cap. A file with no end (/dev/zero, a pipe
// that never closes) or a huge sparse file would otherwise be read into memory
// until the process aborts; a cap turns that into the file's own error, so a
// batch finishes and prints its summary.
#pragma once

#include <cstdint>
#include <string>

namespace p2a::input {

// Default cap: 256 MiB, far above the largest nvcc module we have seen (about
// 5 MB for 77k lines); --max-input-size=MIB raises or lowers it.
constexpr uint64_t kDefaultMaxBytes = 256ull << 20;

struct ReadResult {
  bool ok = false;
  std::string text;  // the bytes read (whole file when ok)
  std::string error; // "cannot read 'F': ..." or "'F' is ... larger than the input limit of N MiB ..."
};

// Reads `path` ("-" is standard input) up to `maxBytes`; more than that is an
// error that names the cap and the option. Reads in chunks, so the size of a
// device or pipe need not be known.
ReadResult readInput(const std::string &path, uint64_t maxBytes);

} // namespace p2a::input
