import Foundation
import TestSupport
import Testing

/// The Guidance target is pure: no I/O, no clock. Its sources are read and searched for the
/// calls that would break that, so a slip fails here rather than in a replay that differs.
@Suite("Guidance purity")
struct GuidancePurityTests {
  static let forbidden = [
    "Date()", "Date.now", ".timeIntervalSinceNow", "DispatchTime", "clock_gettime", "ProcessInfo",
    "FileManager", "FileHandle", "print(", "fopen", "URLSession", "import FoundationNetworking",
    "import Glibc", "import Dispatch", "Thread.", "sleep(",
  ]

  @Test func noIONoClock() throws {
    let folder = TestPaths.repositoryRoot.appendingPathComponent("Sources/Guidance")
    let files = try #require(FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil))
      .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
    #expect(files.count >= 10)
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
