import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Starts a child process with no signals blocked. Foundation's `Process` spawns children
/// with the calling thread's signal mask, and the threads Swift concurrency and Dispatch run
/// tests on block SIGTERM: a broker started from one would ignore `terminate()` and
/// `waitUntilExit()` would wait forever. So the spawn happens on a fresh thread that
/// unblocks everything first.
enum ProcessLaunch {
  static func run(_ process: Process) throws {
    final class Outcome: @unchecked Sendable {
      var error: Error?
    }
    let outcome = Outcome()
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
      var nothing = sigset_t()
      sigemptyset(&nothing)
      pthread_sigmask(SIG_SETMASK, &nothing, nil)
      do { try process.run() } catch { outcome.error = error }
      done.signal()
    }
    thread.start()
    done.wait()
    if let error = outcome.error { throw error }
  }

  /// Sends SIGTERM and waits for the exit; SIGKILL after `grace` seconds, so a test never
  /// hangs on a child that will not stop.
  static func terminate(_ process: Process, grace: TimeInterval = 10) {
    guard process.isRunning else { return }
    let pid = process.processIdentifier
    let exited = DispatchSemaphore(value: 0)
    DispatchQueue.global().asyncAfter(deadline: .now() + grace) {
      if exited.wait(timeout: .now()) == .timedOut { kill(pid, SIGKILL) }
    }
    process.terminate()
    process.waitUntilExit()
    exited.signal()
  }
}
