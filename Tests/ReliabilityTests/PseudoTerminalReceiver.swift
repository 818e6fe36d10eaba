import Foundation
import TestSupport

#if canImport(Glibc)
  import Glibc
#endif

/// A receiver on a pseudo-terminal that writes `RealTimeDrive`'s cycles in real time, each
/// at its own deadline on the monotonic clock (start + (c − first) / 5 s), so cycle times
/// and wall time advance together and do not drift. `cyclesWritten` says which fix was the
/// newest one handed to gpsd at any moment.
final class PseudoTerminalReceiver: @unchecked Sendable {
  let devicePath: String
  let drive: RealTimeDrive
  let firstCycle: Int
  let endCycle: Int
  private let master: Int32
  private let slaveHolder: Int32
  private let lock = NSCondition()
  private var written = 0
  private var feeding = false
  private var unplugged = false
  private var finished = false
  private var finishedAt: Double?

  /// Opens the terminal (readable by any user: gpsd drops root before it opens a device
  /// added later); nothing is written until `startFeeding()`.
  init(drive: RealTimeDrive, cycles: Range<Int>) throws {
    self.drive = drive
    firstCycle = cycles.lowerBound
    endCycle = min(cycles.upperBound, RealTimeDrive.maximumCycles)
    (master, devicePath) = try PseudoTerminal.openMaster()
    // Held open so the terminal lives until unplugged; raw, so nothing is echoed back.
    slaveHolder = open(devicePath, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)
    var settings = termios()
    if tcgetattr(slaveHolder, &settings) == 0 {
      cfmakeraw(&settings)
      _ = tcsetattr(slaveHolder, TCSANOW, &settings)
    }
    chmod(devicePath, 0o666)
    // A gpsd that stops reading must not block the feed (and, through it, `unplug`).
    _ = fcntl(master, F_SETFL, fcntl(master, F_GETFL) | O_NONBLOCK)
  }

  /// Starts writing, one burst per cycle at its deadline, on a thread of its own.
  func startFeeding() {
    lock.lock()
    defer { lock.unlock() }
    guard !feeding else { return }
    feeding = true
    let thread = Thread { [self] in feed() }
    thread.name = "test.real-time-receiver"
    thread.start()
  }

  /// How many cycles have been written whole so far.
  var cyclesWritten: Int { lock.withLock { written } }

  /// The newest cycle written whole, if any.
  var newestCycleWritten: Int? {
    let count = cyclesWritten
    return count > 0 ? firstCycle + count - 1 : nil
  }

  /// When (`MonotonicTime`) the last cycle was written; nil while feeding.
  var feedFinishedAt: Double? { lock.withLock { finishedAt } }

  /// Waits until cycle `cycle` has been written (or `timeout` passes).
  @discardableResult
  func waitForCycle(_ cycle: Int, timeout: Double) -> Bool {
    let deadline = Date(timeIntervalSinceNow: timeout)
    lock.lock()
    defer { lock.unlock() }
    while firstCycle + written <= cycle && !finished {
      if !lock.wait(until: deadline) { break }
    }
    return firstCycle + written > cycle
  }

  private func feed() {
    let start = MonotonicTime.now()
    for cycle in firstCycle..<endCycle {
      let due = start + Double(cycle - firstCycle) * RealTimeDrive.period
      let wait = due - MonotonicTime.now()
      if wait > 0 { usleep(useconds_t(wait * 1_000_000)) }
      lock.lock()
      if unplugged {
        lock.unlock()
        return
      }
      let bytes = Array(drive.nmea(cycle: cycle).utf8)
      _ = bytes.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
      written += 1
      lock.broadcast()
      lock.unlock()
    }
    lock.withLock {
      finished = true
      finishedAt = MonotonicTime.now()
      lock.broadcast()
    }
  }

  /// The receiver is pulled out: nothing more is written and the terminal is closed.
  /// Returns the newest cycle written. Safe to call twice.
  @discardableResult
  func unplug() -> Int? {
    lock.lock()
    let wasUnplugged = unplugged
    unplugged = true
    lock.broadcast()
    let newest = written > 0 ? firstCycle + written - 1 : nil
    lock.unlock()
    if !wasUnplugged {
      close(slaveHolder)
      close(master)
    }
    return newest
  }

  deinit { unplug() }
}

/// CLOCK_MONOTONIC seconds, for the receiver's deadlines.
enum MonotonicTime {
  static func now() -> Double {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
  }
}
