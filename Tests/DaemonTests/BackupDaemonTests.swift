import DashPilotCore
import Foundation
import TestSupport
import Testing

@testable import Store

/// `dashpilotctl backup` against the real daemon while a real gpsd's drive is captured: the
/// copy is one consistent moment of the file, capture goes on, and nothing is overwritten.
@Suite("backup while recording", .serialized, .requiresGPSD)
struct BackupDaemonTests {
  @Test("a backup taken mid-drive opens whole, holds the open shift up to that moment, and capture goes on")
  func backupWhileRecording() throws {
    let directory = try TestPaths.temporaryDirectory("backup")
    defer { try? FileManager.default.removeItem(at: directory) }
    let receiver = try GPSDPseudoReceiver(
      nmea: try DaemonSteadyDrive.write(fixes: 400, in: directory), secondsPerLine: 0.01)
    try receiver.startGPSD()
    defer { receiver.killGPSD() }
    let daemon = try DaemonUnderTest(arguments: ["--gpsd", "127.0.0.1:\(receiver.port)"])
    defer { daemon.stop() }
    try daemon.waitUntilReady()
    #expect(daemon.waitForStatus(timeout: 20) { $0.object("gpsd")?["connected"] as? Bool == true } != nil)
    #expect(try daemon.control(["shift", "start"]).status == 0)
    receiver.startFeeding()
    let midway = try #require(
      daemon.waitForStatus(timeout: 60) { ($0.object("capture")?["accepted"] as? Int ?? 0) >= 100 })
    #expect(midway.object("capture")?["session"] is String)

    let copyPath = directory.appendingPathComponent("copy.sqlite").path
    let backup = try daemon.control(["backup", copyPath])
    #expect(backup.status == 0, "\(backup.standardError)")
    #expect(backup.standardOutput.hasPrefix("Backup written: \(copyPath) ("))
    #expect(backup.standardOutput.hasSuffix(" MB, 1 shift).\n"))
    // The same file again is refused, and left as it is.
    let copied = try Data(contentsOf: URL(fileURLWithPath: copyPath))
    let again = try daemon.control(["backup", copyPath])
    #expect(again.status == 1)
    #expect(again.standardError.contains("\(copyPath) already exists; a backup never overwrites a file"))
    #expect(try Data(contentsOf: URL(fileURLWithPath: copyPath)) == copied)

    // Capture went on after the copy: the drive's end is stored in the live file.
    #expect(receiver.waitForProgress(receiver.lineCount, timeout: 120))
    let end = try #require(
      daemon.waitForStatus(timeout: 30) {
        ($0.object("gpsd")?["last_fix_at"] as? String).flatMap { UTCTimestamp.parse($0) }
          == Date(timeIntervalSince1970: 1_714_557_600 + 399)
      })
    let liveRows = try #require(end.object("shift.distance")?["usable_positions"] as? Int)
    let copy = try SampleStore(readingFrom: copyPath)
    #expect(try copy.quickCheck() == ["ok"])
    #expect(try copy.openShift()?.id == 1)
    let copiedRows = try copy.sampleCount(ofShift: 1)
    #expect(copiedRows > 0)
    #expect(copiedRows < liveRows)
    // One moment of the file: the copy's rows are the live file's first rows, as they are.
    let live = try SampleStore(readingFrom: daemon.databasePath)
    #expect(Array(try live.samples(ofShift: 1).prefix(copiedRows)) == (try copy.samples(ofShift: 1)))

    // Without a file, the copy goes beside the database; a relative FILE is the caller's.
    let beside = try daemon.controlJSON(["backup"])
    let besidePath = try #require(beside["path"] as? String)
    #expect(besidePath.hasPrefix(directory.path) == false)
    #expect(besidePath.hasPrefix(daemon.directory.appendingPathComponent("backups/dashpilot-").path))
    #expect(besidePath.hasSuffix("Z.sqlite"))
    #expect(beside["shifts"] as? Int == 1)
  }
}
