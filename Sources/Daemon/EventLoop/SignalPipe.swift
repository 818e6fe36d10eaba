import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// The write end the signal handler uses; set once before the handler is installed.
nonisolated(unsafe) private var signalWriteFD: Int32 = -1

/// Turns SIGTERM, SIGINT and SIGHUP into bytes on a pipe the loop polls, so they are
/// handled in order with every other event and never inside a signal handler. The
/// handler only calls write(2), which is async-signal-safe; SIGPIPE is ignored because
/// every send uses MSG_NOSIGNAL and a vanished client must not stop the daemon.
final class SignalPipe {
  let readFD: Int32

  init(signals: [Int32] = [SIGTERM, SIGINT, SIGHUP]) throws {
    let fds = try makeNonBlockingPipe()
    readFD = fds.read
    // An empty list (tests running the daemon in-process) leaves the process's handlers alone.
    guard !signals.isEmpty else { return }
    signalWriteFD = fds.write
    signal(SIGPIPE, SIG_IGN)
    for number in signals {
      var action = sigaction()
      action.__sigaction_handler.sa_handler = { received in
        let saved = errno
        var byte = UInt8(truncatingIfNeeded: received)
        _ = write(signalWriteFD, &byte, 1)
        errno = saved
      }
      sigemptyset(&action.sa_mask)
      action.sa_flags = SA_RESTART
      guard sigaction(number, &action, nil) == 0 else { throw SystemCallError("sigaction", errno) }
    }
    // A parent may hand over a mask with these blocked (a process spawned from a
    // Dispatch worker thread inherits its all-blocked mask); unblock them on this thread.
    var unblock = sigset_t()
    sigemptyset(&unblock)
    for number in signals { sigaddset(&unblock, number) }
    pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
  }

  /// The signals received since the last call, in order.
  func take() -> [Int32] {
    var bytes = [UInt8](repeating: 0, count: 32)
    var received: [Int32] = []
    while true {
      let count = read(readFD, &bytes, bytes.count)
      guard count > 0 else { break }
      received += bytes[0..<count].map { Int32($0) }
    }
    return received
  }
}
