#if canImport(Glibc)
  import Glibc
#endif

/// Seconds on the monotonic clock: timeouts and intervals that a wall-clock step (a box
/// whose clock is set from GPS after boot) cannot stretch or shrink.
public enum MonotonicClock {
  public static func now() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1_000_000_000
  }
}

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
