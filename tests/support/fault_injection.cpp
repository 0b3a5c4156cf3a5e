// LD_PRELOAD fault injection for the hostile-input tests: real system calls
// fail the way a full disk or an unwritable directory makes them fail,
// without needing a small filesystem or a second user.
//
//   P2A_FAULT_ENOSPC_AFTER=N  a regular file (fd >= 3) cannot grow past N
//                             bytes: the write that would cross N writes up
//                             to N, the next one fails with ENOSPC.
//   P2A_FAULT_EACCES_DIR=DIR  creating a file under DIR fails with EACCES.
#include <cerrno>
#include <cstdarg>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>

namespace {

template <typename Fn> Fn next(const char *name) { return reinterpret_cast<Fn>(dlsym(RTLD_NEXT, name)); }

// How many of `count` bytes may still go to fd; -1 when unlimited.
long allowance(int fd, size_t count) {
  const char *limit = std::getenv("P2A_FAULT_ENOSPC_AFTER");
  struct stat st;
  if (!limit || fd < 3 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
    return -1;
  const long room = std::atol(limit) - static_cast<long>(st.st_size);
  if (room <= 0)
    return 0;
  return static_cast<size_t>(room) < count ? room : static_cast<long>(count);
}

bool createDenied(const char *path, int flags) {
  const char *dir = std::getenv("P2A_FAULT_EACCES_DIR");
  return dir && *dir && (flags & O_CREAT) && path && std::strncmp(path, dir, std::strlen(dir)) == 0;
}

// The real open or open64, unless the file would be created under the
// refused directory.
int guardedOpen(const char *which, const char *path, int flags, mode_t mode) {
  if (createDenied(path, flags)) {
    errno = EACCES;
    return -1;
  }
  auto real = next<int (*)(const char *, int, ...)>(which);
  return real(path, flags, mode);
}

} // namespace

extern "C" {

ssize_t write(int fd, const void *buf, size_t count) {
  static auto real = next<ssize_t (*)(int, const void *, size_t)>("write");
  const long allowed = allowance(fd, count);
  if (allowed == 0 && count > 0) {
    errno = ENOSPC;
    return -1;
  }
  return real(fd, buf, allowed < 0 ? count : static_cast<size_t>(allowed));
}

ssize_t writev(int fd, const struct iovec *iov, int n) {
  static auto real = next<ssize_t (*)(int, const struct iovec *, int)>("writev");
  size_t total = 0;
  for (int i = 0; i < n; ++i)
    total += iov[i].iov_len;
  if (allowance(fd, total) >= 0 && static_cast<size_t>(allowance(fd, total)) < total) {
    if (n > 0 && allowance(fd, total) > 0)
      return write(fd, iov[0].iov_base, iov[0].iov_len);
    errno = ENOSPC;
    return -1;
  }
  return real(fd, iov, n);
}

int open(const char *path, int flags, ...) {
  va_list ap;
  va_start(ap, flags);
  const mode_t mode = (flags & O_CREAT) ? static_cast<mode_t>(va_arg(ap, int)) : 0;
  va_end(ap);
  return guardedOpen("open", path, flags, mode);
}

int open64(const char *path, int flags, ...) {
  va_list ap;
  va_start(ap, flags);
  const mode_t mode = (flags & O_CREAT) ? static_cast<mode_t>(va_arg(ap, int)) : 0;
  va_end(ap);
  return guardedOpen("open64", path, flags, mode);
}

} // extern "C"
