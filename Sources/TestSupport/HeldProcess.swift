import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A child process a test helper holds: started with no signals blocked (`ProcessLaunch`),
/// stopped as a service manager stops it (SIGTERM, SIGKILL after a grace), and killed
/// when the holder is released, so a failing test never leaves it running.
final class HeldProcess: @unchecked Sendable {
  // @unchecked: the process handle is only touched under the lock.
  private let lock = NSLock()
  private var process: Process?

  /// Runs `process` and holds it.
  func start(_ process: Process) throws {
    try ProcessLaunch.run(process)
    lock.withLock { self.process = process }
  }

  /// The process held now; nil before `start` and after `stop`.
  var current: Process? { lock.withLock { process } }

  func stop() {
    guard
      let process = lock.withLock({ () -> Process? in
        defer { self.process = nil }
        return self.process
      })
    else { return }
    ProcessLaunch.terminate(process)
  }

  deinit {
    if let process, process.isRunning {
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
    }
  }
}
