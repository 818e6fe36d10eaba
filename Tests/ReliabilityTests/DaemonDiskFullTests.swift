import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The real `dashpilotd` recording a shift from a real gpsd into a database on a small
/// tmpfs, which a filler file fills mid-shift while the drive goes on arriving: the one
/// session that meets the full disk ends with the reason in the log (stderr: the journal
/// falls back to it outside systemd), `dashpilotctl status` shows the store error, capture
/// holds without minting a session per fix, every row committed before the fill stays
/// exactly as it was, and once the filler is removed capture resumes by itself in one new
/// session, without a restart.
@Suite("disk full: dashpilotd's database on a tmpfs filled mid-shift", .serialized)
struct DaemonDiskFullTests {
  /// Fixes the daemon must have stored before the disk is filled.
  static let storedBeforeFill = 100
  /// Fixes that must arrive while the disk is full.
  static let fixesWhileFull = 100

  @Test(
    "full mid-shift: one session ends with the reason, status shows the store error, nothing committed is lost, one new session when space returns",
    .requiresTmpfs, .requiresGPSD)
  func fullThenFreed() throws {
    let directory = try TestPaths.temporaryDirectory("daemon-disk-full")
    defer { try? FileManager.default.removeItem(at: directory) }
    let mount = try TmpfsMount(kilobytes: 8192)
    defer { mount.unmount() }
    let database = mount.directory.appendingPathComponent("dashpilot.sqlite").path
    // A 10 Hz receiver: one fix (4 sentences) every 0.1 s, for up to 20 minutes.
    let receiver = try GPSDPseudoReceiver(
      nmea: try DaemonSteadyDrive.write(fixes: 12_000, in: directory), secondsPerLine: 0.025)
    defer { receiver.stop() }
    try receiver.startGPSD()
    let daemon = try DaemonUnderTest(arguments: ["--gpsd", "127.0.0.1:\(receiver.port)", "--database", database])
    defer { daemon.stop() }
    try daemon.waitUntilReady(timeout: 30)
    #expect(try daemon.controlJSON(["shift", "start"])["id"] as? Int == 1)
    receiver.startFeeding()

    let recording = try #require(
      daemon.waitForStatus(timeout: 90) { status in
        (status.object("shift.distance")?["usable_positions"] as? Int ?? 0) >= Self.storedBeforeFill
          && status.object("capture")?["session"] is String
      }, "nothing stored: \(daemon.log)")
    let firstSession = try #require(recording.object("capture")?["session"] as? String)
    let beforeFill = try DaemonStoreSnapshot(database: database)
    #expect(beforeFill.rows.count >= Self.storedBeforeFill)

    try mount.fill()
    #expect(mount.freeBytes == 0)
    let failed = try #require(
      daemon.waitForStatus(timeout: 60) { $0.object("store")?["ok"] as? Bool == false },
      "the store never failed on a full disk: \(daemon.log)")
    let storeError = try #require(failed.object("store")?["last_error"] as? String)
    #expect(storeError.contains(" samples not saved: disk full: "), "\(storeError)")
    #expect(failed.object("capture")?["session"] is NSNull)
    let endedLines = daemon.log.split(separator: "\n").filter {
      $0.contains("capture session \(firstSession) of shift 1 ended: a sample could not be saved: ")
    }
    #expect(endedLines.count == 1)
    #expect(endedLines.first?.contains(" samples not saved: disk full: ") == true, "\(endedLines)")
    #expect(daemon.logLines(containing: "store write failed: ") == 1)

    // The drive goes on while the disk stays full: capture holds, the fixes are dropped
    // and counted, and no session is minted for any of them.
    let heldFrom = receiver.progress
    #expect(receiver.waitForProgress(heldFrom + 4 * Self.fixesWhileFull, timeout: 120))
    let holding = try daemon.controlJSON(["status"])
    #expect(holding.object("store")?["ok"] as? Bool == false)
    #expect(holding.object("store")?["last_error"] as? String == storeError)
    #expect(holding.object("capture")?["session"] is NSNull)
    let dropped = holding.object("capture.rejected")?["store_failing"] as? Int ?? 0
    #expect(dropped >= Self.fixesWhileFull - 5, "\(holding)")
    #expect(daemon.logLines(containing: " started for shift 1") == 1)
    #expect(daemon.logLines(containing: " of shift 1 ended: ") == 1)
    #expect(daemon.logLines(containing: "store write failed: ") == 1)
    let text = try daemon.control(["status"])
    #expect(text.status == 0)
    #expect(text.standardOutput.contains("error: \(storeError)"), "\(text.standardOutput)")
    #expect(text.standardOutput.contains("no session"), "\(text.standardOutput)")
    #expect(text.standardOutput.contains("store failing "), "\(text.standardOutput)")
    // What was committed before the fill is all there, readable while the disk is full.
    let whileFull = try DaemonStoreSnapshot(database: database)
    #expect(beforeFill.missingOrChanged(in: whileFull) == [])
    #expect(try DaemonDatabaseProbe.integrity(database) == ["ok"])
    // Its end is owed to the full disk, and written as soon as SQLite finds room: once a
    // checkpoint has run, the write-ahead log it already has is reused without growing, and
    // whether that happens before this read depends on the daemon's other readers.
    let whileFullSessions = try DaemonStoreSnapshot.sessions(database)
    #expect(
      whileFullSessions == ["\(firstSession)|-"] || whileFullSessions == ["\(firstSession)|save_failed"],
      "\(whileFullSessions)")

    try mount.removeFiller()
    let resumed = try #require(
      daemon.waitForStatus(timeout: 120) { status in
        status.object("store")?["ok"] as? Bool == true
          && status.object("capture")?["session"] is String
          && (status.object("capture")?["accepted"] as? Int ?? 0) > 0
      }, "capture never resumed once space returned: \(daemon.log)")
    let secondSession = try #require(resumed.object("capture")?["session"] as? String)
    #expect(secondSession != firstSession)
    #expect(resumed.object("store")?["last_error"] is NSNull)
    #expect(daemon.logLines(containing: "store writes succeed again") == 1)
    #expect(daemon.logLines(containing: "capture session \(secondSession) started for shift 1") == 1)
    #expect(daemon.logLines(containing: " started for shift 1") == 2)
    #expect(daemon.process.isRunning)

    // Rows of the new session are committed; then the shift ends.
    let grown = daemon.waitForStatus(timeout: 60) { status in
      (status.object("shift.distance")?["usable_positions"] as? Int ?? 0) > whileFull.rows.count
    }
    #expect(grown != nil)
    let ended = try daemon.controlJSON(["shift", "end"])
    #expect(ended["id"] as? Int == 1)
    let shown = try daemon.controlJSON(["shift", "show", "1"])
    #expect(shown["capture_sessions"] as? Int == 2)
    #expect(
      try DaemonStoreSnapshot.sessions(database) == ["\(firstSession)|save_failed", "\(secondSession)|capture_stopped"])
    let afterwards = try DaemonStoreSnapshot(database: database)
    #expect(beforeFill.missingOrChanged(in: afterwards) == [])
    #expect(afterwards.rows.count > whileFull.rows.count)
    #expect(try DaemonDatabaseProbe.query(database, "SELECT count(DISTINCT capture_session) FROM samples") == ["2"])
    #expect(try DaemonDatabaseProbe.integrity(database) == ["ok"])
    #expect(daemon.logLines(containing: " started for shift 1") == 2)
  }
}
