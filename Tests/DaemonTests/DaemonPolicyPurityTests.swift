import Foundation
import TestSupport
import Testing

/// The daemon's policies (each component's `Policy` folder) decide by the times they are
/// passed and do no I/O: the adapters beside them read the clocks and do the rest. Their
/// sources are searched for the calls that would break that.
@Suite("Daemon policy purity")
struct DaemonPolicyPurityTests {
  static let forbidden = [
    "Date()", "Date.now", ".timeIntervalSinceNow", "Date(timeIntervalSinceNow:", "MonotonicClock", "clock_gettime",
    "LoopClock", "Clocks",
    "WallClockSynchronisation", "ProcessInfo", "ContinuousClock", "SuspendingClock", "Task.sleep", "sleep(",
    "FileManager", "FileHandle", "print(", "import Glibc", "import Dispatch", "Thread", "DaemonContext",
    "Responder", "BlockingWorker", "Speaker", "SampleStore", "GPSDSource(", "StoreSampleSink", "RouteProvider",
  ]

  @Test(arguments: [
    "Sources/Daemon/Components/Guidance/Policy", "Sources/Daemon/Components/Recording/Policy",
    "Sources/Daemon/Components/Retention/Policy",
  ])
  func noIONoClock(folder: String) throws {
    let search = try SourcePurity.offences(in: folder, forbidden: Self.forbidden)
    #expect(search.files >= 5)
    #expect(search.offences == [])
  }
}
