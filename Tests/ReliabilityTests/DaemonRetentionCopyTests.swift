import Foundation
import TestSupport
import Testing

/// Retention in the real `dashpilotd` while its store's file is copied (0.1.0's layout, a
/// conversion): nothing goes while the copy is made, and the start that puts the copy in
/// place deletes what KeepDays lets go from it.
@Suite("retention waits for the store's copy in dashpilotd", .serialized)
struct DaemonRetentionCopyTests {
  @Test(
    "KeepDays=30 on a 0.1.0 file: nothing goes while it is converted; the next start deletes its two old shifts",
    .requiresCCompiler)
  func waitsWhileTheFileIsCopied() throws {
    let directory = try TestPaths.temporaryDirectory("daemon-retention-copy")
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("dashpilot.sqlite").path
    // Two shifts that ended on 2024-06-01, and a third still open.
    try FileManager.default.copyItem(
      at: TestPaths.fixtures.appendingPathComponent("databases/dashpilot-0.1.0.sqlite"),
      to: URL(fileURLWithPath: path))
    // A synchronised wall clock: the box's now, years after those shifts, is trusted at once.
    let environment = ["LD_PRELOAD": try SynchronisedClockShim.build(in: directory)]

    let first = try DaemonUnderTest(
      config: "[Store]\nKeepDays=30\n", environment: environment, databasePath: path)
    try first.waitUntilReady()
    #expect(
      RetentionRig.waitForLog(
        first,
        "retention: nothing is deleted while the store's file is copied into a fresh one; deletions resume once the "
          + "next start of dashpilotd has put the copy in its place"), "\(first.log)")
    #expect(
      RetentionRig.waitForLog(first, "; the next start of dashpilotd puts it in the file's place"), "\(first.log)")
    #expect(try RetentionRig.listedShifts(first) == [3, 2, 1])
    #expect(first.logLines(containing: "retention: deleted") == 0)
    #expect(first.stop() == 0)

    let second = try DaemonUnderTest(
      config: "[Store]\nKeepDays=30\n", environment: environment, databasePath: path)
    defer { second.stop() }
    try second.waitUntilReady()
    #expect(RetentionRig.waitForLog(second, "retention: deleted shift 1 ("), "\(second.log)")
    #expect(RetentionRig.waitForLog(second, "retention: deleted shift 2 ("), "\(second.log)")
    #expect(second.log.contains("now has the current layout (1 KiB pages, no AUTOINCREMENT)"))
    #expect(!second.log.contains("retention: nothing is deleted while"))
    #expect(try RetentionRig.listedShifts(second) == [3])
  }
}
