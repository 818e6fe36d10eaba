import Foundation
import TestSupport
import Testing

/// Every clock the daemon reads is its one set (`DaemonContext.clock`, the loop's), or one
/// handed in at construction to what runs on another thread (gpsd's reader, the uplink's
/// queue, a child's watchdog), so that a test can hand in its own and every deadline is on
/// the monotonic clock the loop's timers run on. A wait for another thread (`Condition`, a
/// dispatch semaphore) is on the kernel's CLOCK_MONOTONIC by nature and is not searched for.
/// The sources are searched for the reads that would bypass that.
@Suite("The daemon reads its clocks through one seam")
struct DaemonClockReadsTests {
  static let reads = [
    "MonotonicClock", "Date()", "Date.now", "Date(timeIntervalSinceNow:", ".timeIntervalSinceNow", "clock_gettime",
    "gettimeofday", "ContinuousClock", "SuspendingClock", "DispatchWallTime", "uptimeNanoseconds", "systemUptime",
  ]

  @Test("the daemon reads no clock but its context's, and chooses the machine's in one place")
  func daemonReadsItsContextsClocks() throws {
    // A default of the machine's clocks would let a component skip the context's unseen.
    let forbidden = Self.reads + ["LoopClock()", "Clocks = .system", "Clocks.system"]
    let search = try SourcePurity.offences(
      in: "Sources/Daemon", forbidden: forbidden, allowed: ["DaemonMain.swift: LoopClock()"])
    #expect(search.files >= 50)
    #expect(search.offences == [])
  }

  @Test(
    "gpsd's reader and the uplink read only the clocks they are handed (the machine's by default)",
    arguments: [("Sources/GPSD", 5), ("Sources/Uplink", 15)])
  func adaptersReadTheClocksTheyAreHanded(folder: String, atLeast: Int) throws {
    let search = try SourcePurity.offences(in: folder, forbidden: Self.reads)
    #expect(search.files >= atLeast)
    #expect(search.offences == [])
  }
}
