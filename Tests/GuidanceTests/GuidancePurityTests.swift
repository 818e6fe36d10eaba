import Foundation
import TestSupport
import Testing

/// The pure core (DashPilotCore and Guidance) does no I/O and reads no clock. Its sources are
/// read and searched for the calls that would break that, so a slip fails here rather than
/// in a replay that differs.
@Suite("Guidance purity")
struct GuidancePurityTests {
  static let forbidden = [
    "Date()", "Date.now", ".timeIntervalSinceNow", "DispatchTime", "clock_gettime", "ProcessInfo",
    "ContinuousClock", "SuspendingClock", "Task.sleep", "FileManager", "FileHandle", "print(", "fopen",
    "URLSession", "import Foundation\n", "import FoundationNetworking", "import Glibc", "import Dispatch",
    "Thread.", "sleep(",
  ]
  /// The core's one way into Glibc, for libm's trigonometry (see the file).
  static let allowed: Set = ["Trigonometry.swift: import Glibc"]

  @Test(arguments: [("Sources/Guidance", 10), ("Sources/DashPilotCore", 10)])
  func noIONoClock(folder: String, atLeast: Int) throws {
    let root = TestPaths.repositoryRoot.appendingPathComponent(folder)
    let files = try #require(FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil))
      .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
    #expect(files.count >= atLeast)
    var offences: [String] = []
    for file in files {
      let text = try String(contentsOf: file, encoding: .utf8)
      for token in Self.forbidden where text.contains(token) {
        let offence = "\(file.lastPathComponent): \(token)"
        if !Self.allowed.contains(offence) { offences.append(offence) }
      }
    }
    #expect(offences == [])
  }
}
