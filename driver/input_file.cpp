#include "driver/input_file.hpp"

#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Process.h>

#include <vector>

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
  }
  std::vector<char> chunk(1 << 20);
  for (;;) {
    llvm::Expected<size_t> n = fs::readNativeFile(handle, llvm::MutableArrayRef<char>(chunk.data(), chunk.size()));
    if (!n) {
      r.error = "cannot read '" + path + "': " + llvm::toString(n.takeError());
      break;
    }
    if (*n == 0) {
      r.ok = true;
      break;
    }
    if (r.text.size() + *n > maxBytes) {
      r.error = tooLarge(path, "", maxBytes);
      break;
    }
    r.text.append(chunk.data(), *n);
  }
  if (close)
    fs::closeFile(handle);
  if (!r.ok)
    r.text.clear();
  return r;
}

} // namespace p2a::input
