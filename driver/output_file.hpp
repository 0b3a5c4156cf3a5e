// Atomic output: data goes to a temporary file next to the destination,
// which is renamed into place only after every byte was written and
// flushed. A write error (a full disk, a quota) discards the temporary file,
// so a failed run never leaves a partial output, and a previous output of
// the same name stays as it was.
//
// llvm::writeToOutput is not enough: it renames the temporary file without
// checking the stream for write errors, and the stream's destructor then
// aborts the process with "IO failure on output stream".
#pragma once

#include <string>
#include <string_view>

namespace p2a::output {

// Writes `data` to `path` ("-" is stdout). Returns "" on success, else a
// message: "cannot write 'PATH': No space left on device".
std::string writeAtomically(const std::string &path, std::string_view data);

} // namespace p2a::output
