#include "driver/output_file.hpp"

#include <llvm/Support/Error.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/raw_ostream.h>

namespace p2a::output {

namespace {

std::string failure(const std::string &path, const std::string &why) { return "cannot write '" + path + "': " + why; }

// The message of a stream error, and the error cleared (an uncleared error
// makes the stream's destructor abort the process).
std::string takeError(llvm::raw_fd_ostream &os) {
  std::string msg = os.error().message();
  os.clear_error();
  return msg;
}

} // namespace

std::string writeAtomically(const std::string &path, std::string_view data) {
  if (path == "-") {
    llvm::raw_fd_ostream &out = llvm::outs();
    out << data;
    out.flush();
    return out.has_error() ? failure("<stdout>", takeError(out)) : "";
  }
  // A device or a pipe (/dev/null, /dev/full, a FIFO) is written in place:
  // renaming a file over it would replace the device node.
  llvm::sys::fs::file_status st;
  if (!llvm::sys::fs::status(path, st) && llvm::sys::fs::exists(st) && !llvm::sys::fs::is_regular_file(st) &&
      !llvm::sys::fs::is_directory(st)) {
    std::error_code ec;
    llvm::raw_fd_ostream os(path, ec);
    if (ec)
      return failure(path, ec.message());
    os << data;
    os.flush();
    return os.has_error() ? failure(path, takeError(os)) : "";
  }
  llvm::Expected<llvm::sys::fs::TempFile> temp =
      llvm::sys::fs::TempFile::create(path + ".tmp-%%%%%%%%", llvm::sys::fs::all_read | llvm::sys::fs::all_write);
  if (!temp)
    return failure(path, llvm::toString(temp.takeError()));
  std::string error;
  {
    llvm::raw_fd_ostream os(temp->FD, /*shouldClose=*/false);
    os << data;
    os.flush();
    if (os.has_error())
      error = takeError(os);
  }
  if (!error.empty()) {
    llvm::consumeError(temp->discard());
    return failure(path, error);
  }
  // keep() with no name only closes the file (reporting a failed close) and
  // leaves it at its temporary name; the rename is ours. TempFile::keep(path)
  // would fall back to copying over the destination when the rename fails,
  // which can leave a partial output.
  const std::string tmpName = temp->TmpName;
  if (llvm::Error e = temp->keep()) {
    llvm::sys::fs::remove(tmpName);
    return failure(path, llvm::toString(std::move(e)));
  }
  if (std::error_code ec = llvm::sys::fs::rename(tmpName, path)) {
    llvm::sys::fs::remove(tmpName);
    return failure(path, ec.message());
  }
  return "";
}

} // namespace p2a::output
