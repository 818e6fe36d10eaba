import Foundation
import TestSupport
import Testing

/// The daemon's policies (each component's `Policy` folder) decide by the times they are
/// passed and do no I/O: the adapters beside them read the clocks and do the rest. Their
/// sources are searched for the calls that would break that.
@Suite("Daemon policy purity")
struct DaemonPolicyPurityTests {
  static let forbidden = [
    "Date()", "Date.now", ".timeIntervalSinceNow", "MonotonicClock", "clock_gettime", "LoopClock", "Clocks",
    "WallClockSynchronisation", "ProcessInfo", "ContinuousClock", "SuspendingClock", "Task.sleep", "sleep(",
    "FileManager", "FileHandle", "print(", "import Glibc", "import Dispatch", "Thread", "DaemonContext",
    "Responder", "BlockingWorker", "Speaker", "SampleStore", "GPSDSource(", "StoreSampleSink", "RouteProvider",
  ]

  @Test(arguments: ["Sources/Daemon/Components/Guidance/Policy", "Sources/Daemon/Components/Recording/Policy"])
  func noIONoClock(folder: String) throws {
    let root = TestPaths.repositoryRoot.appendingPathComponent(folder)
    let files = try FileManager.default.contentsOfDirectory(at: root, includingPropertiesForKeys: nil)
      .filter { $0.pathExtension == "swift" }
    #expect(files.count >= 5)
    var offences: [String] = []
    for file in files {
      let text = try String(contentsOf: file, encoding: .utf8)
      for token in Self.forbidden where text.contains(token) {
        offences.append("\(file.lastPathComponent): \(token)")
      }
    }
    #expect(offences == [])
  }
}
