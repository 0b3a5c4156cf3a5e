#include "driver/input_file.hpp"

#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Process.h>

#include <algorithm>

namespace p2a::input {

namespace {

std::string tooLarge(const std::string &path, const std::string &size, uint64_t maxBytes) {
  const std::string limit = maxBytes % (1u << 20) == 0 ? std::to_string(maxBytes >> 20) + " MiB"
                                                       : std::to_string(maxBytes) + " bytes";
  return "'" + path + "' is " + size + "larger than the input limit of " + limit +
         " (--max-input-size=MIB raises it)";
}

} // namespace

ReadResult readInput(const std::string &path, uint64_t maxBytes) {
  ReadResult r;
  namespace fs = llvm::sys::fs;
  fs::file_t handle;
  bool close = false;
  uint64_t knownSize = 0;
  if (path == "-") {
    handle = fs::getStdinHandle();
  } else {
    llvm::Expected<fs::file_t> opened = fs::openNativeFileForRead(path, fs::OF_Text);
    if (!opened) {
      r.error = "cannot read '" + path + "': " + llvm::toString(opened.takeError());
      return r;
    }
    handle = *opened;
    close = true;
    fs::file_status st;
    // A directory opens on Linux, and then fails the first read with EISDIR.
    if (!fs::status(handle, st) && st.type() == fs::file_type::regular_file && st.getSize() > maxBytes) {
      fs::closeFile(handle);
      r.error = tooLarge(path, std::to_string(st.getSize()) + " bytes, ", maxBytes);
      return r;
    }
    if (st.type() == fs::file_type::regular_file)
      knownSize = st.getSize();
  }
  // Read straight into the text: a regular file's size is known, so one
  // buffer of that size (and a byte for the end-of-file read) takes it
  // whole. A zeroed 1 MiB staging chunk cost 256 page faults on every run,
  // a third of an empty module's (each fault is costly on virtual machines).
  std::string &text = r.text;
  size_t filled = 0;
  text.resize(knownSize ? std::min<uint64_t>(knownSize, maxBytes) + 1 : 64 << 10);
  for (;;) {
    if (filled == text.size())
      text.resize(std::min<uint64_t>(text.size() * 2, maxBytes + 1));
    llvm::Expected<size_t> n =
        fs::readNativeFile(handle, llvm::MutableArrayRef<char>(text.data() + filled, text.size() - filled));
    if (!n) {
      r.error = "cannot read '" + path + "': " + llvm::toString(n.takeError());
      break;
    }
    if (*n == 0) {
      r.ok = true;
      break;
    }
    filled += *n;
    if (filled > maxBytes) {
      r.error = tooLarge(path, "", maxBytes);
      break;
    }
  }
  text.resize(filled);
  if (close)
    fs::closeFile(handle);
  if (!r.ok)
    r.text.clear();
  return r;
}

} // namespace p2a::input
