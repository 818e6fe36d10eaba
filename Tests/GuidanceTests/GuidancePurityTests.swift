import Foundation
import TestSupport
import Testing

/// The pure core (DashPilotCore and Guidance) and the shift report's renderer (ShiftReport: a
/// value in, text out) do no I/O and read no clock. Their sources are read and searched for
/// the calls that would break that, so a slip fails here rather than in a replay that differs.
@Suite("Guidance purity")
struct GuidancePurityTests {
  static let forbidden = [
    "Date()", "Date.now", ".timeIntervalSinceNow", "Date(timeIntervalSinceNow:", "DispatchTime", "clock_gettime",
    "ProcessInfo",
    "ContinuousClock", "SuspendingClock", "Task.sleep", "FileManager", "FileHandle", "print(", "fopen",
    "URLSession", "import Foundation\n", "import FoundationNetworking", "import Glibc", "import Dispatch",
    "Thread.", "sleep(",
  ]
  /// The core's one way into Glibc, for libm's trigonometry (see the file).
  static let allowed: Set = ["Trigonometry.swift: import Glibc"]

  @Test(arguments: [("Sources/Guidance", 10), ("Sources/DashPilotCore", 10), ("Sources/ShiftReport", 5)])
  func noIONoClock(folder: String, atLeast: Int) throws {
    let search = try SourcePurity.offences(in: folder, forbidden: Self.forbidden, allowed: Self.allowed)
    #expect(search.files >= atLeast)
    #expect(search.offences == [])
  }
}
