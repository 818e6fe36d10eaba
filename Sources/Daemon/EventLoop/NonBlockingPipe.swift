#if canImport(Glibc)
  import Glibc
#endif

/// A pipe whose ends are non-blocking and close on exec (Glibc's module hides pipe2).
func makeNonBlockingPipe() throws -> (read: Int32, write: Int32) {
  var fds: [Int32] = [0, 0]
  guard pipe(&fds) == 0 else { throw SystemCallError("pipe", errno) }
  for fd in fds {
    _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
  }
  return (fds[0], fds[1])
}
