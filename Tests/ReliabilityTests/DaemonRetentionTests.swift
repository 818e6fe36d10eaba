import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `[Store] KeepDays=` in the real `dashpilotd`, on a box whose wall clock is seven years
/// ahead and not synchronised (libfaketime, and an adjtimex that says so whatever this
/// machine's clock is): nothing goes while the box has no time it can trust; once a real
/// gpsd's fixes date the present, only the shift that ended more than KeepDays before them
/// goes, said in the journal; the others stay, and so does the open shift, which records on
/// with its live figure undisturbed.
@Suite("retention by age in dashpilotd, with a wall clock years off", .serialized)
struct DaemonRetentionTests {
  @Test(
    "KeepDays=30: nothing goes until a fix dates now, then only what ended more than 30 days before it",
    .requiresFaketime, .requiresCCompiler, .requiresGPSD)
  func keepDaysJudgedOnTheReceiversClock() throws {
    let directory = try TestPaths.temporaryDirectory("daemon-retention")
    defer { try? FileManager.default.removeItem(at: directory) }
    let shim = try SynchronisedClockShim.build(in: directory, synchronised: false)
    // The drive is dated 2024-05-01 from 10:00:00Z, one fix a second.
    let receiver = try GPSDPseudoReceiver(
      nmea: try DaemonSteadyDrive.write(fixes: 600, in: directory), secondsPerLine: 0.25)
    defer { receiver.stop() }
    try receiver.startGPSD()
    let faked = try FakedWallClock(directory: directory)
    defer { faked.remove() }
    try faked.set(wall: Date(timeIntervalSince1970: TimeInterval(RetentionRig.day("2031-06-01"))))
    var environment = faked.environment
    environment["LD_PRELOAD"] = "\(shim) \(FakedWallClock.library)"
    let daemon = try DaemonUnderTest(
      config: "[Store]\nKeepDays=30\n", arguments: ["--gpsd", "127.0.0.1:\(receiver.port)"], environment: environment)
    defer { daemon.stop() }
    try daemon.waitUntilReady(timeout: 30)

    // Ended 61 days, 6 days and 21 days before the drive.
    let old = try RetentionRig.importShift(daemon, start: RetentionRig.day("2024-03-01"))
    let recent = try RetentionRig.importShift(daemon, start: RetentionRig.day("2024-04-25"))
    let middling = try RetentionRig.importShift(daemon, start: RetentionRig.day("2024-04-10"))
    #expect([old, recent, middling] == [Int](1...3))
    let open = try #require(try daemon.controlJSON(["shift", "start"])["id"] as? Int)
    #expect(RetentionRig.waitForLog(daemon, "retention: completed shifts are deleted 30 days after they end; "))
    #expect(
      RetentionRig.waitForLog(
        daemon,
        "retention: nothing is deleted by age until the box has a time it can trust (a synchronised wall clock or a fix)"
      ), "\(daemon.log)")
    // By the wall clock (2031) every shift is years old; none went when that was decided.
    #expect(try RetentionRig.listedShifts(daemon) == [open, middling, recent, old])
    #expect(daemon.logLines(containing: "retention: deleted") == 0)

    receiver.startFeeding()
    #expect(
      RetentionRig.waitForLog(
        daemon,
        "retention: deleted shift 1 (2024-03-01T00:00:00.000Z to 2024-03-01T00:03:10.000Z; 20 samples, "
          + "0 capture sessions): it ended 61 days ago, past KeepDays=30", timeout: 60),
      "\(daemon.log)")
    #expect(daemon.logLines(containing: "retention: deleted") == 1)
    #expect(try RetentionRig.listedShifts(daemon) == [open, middling, recent])
    let listed = try daemon.control(["shifts"])
    #expect(
      listed.standardOutput.hasSuffix(
        "\nShifts are kept 30 days after they end, then deleted ([Store] KeepDays=30).\n"),
      "\(listed.standardOutput)")
    #expect(try daemon.controlJSON(["status"]).object("store")?["keep_days"] as? Int == 30)
    let shown = try daemon.control(["shift", "show", "1"])
    #expect(shown.status == 1)
    #expect(shown.standardError.contains("no shift with id 1"), "\(shown)")
    let database = daemon.databasePath
    #expect(try DaemonDatabaseProbe.query(database, "SELECT count(*) FROM samples WHERE shift_id = 1") == ["0"])
    #expect(try DaemonDatabaseProbe.query(database, "SELECT id FROM shifts ORDER BY id") == ["2", "3", "4"])
    #expect(
      try DaemonDatabaseProbe.query(
        database, "SELECT shift_id, count(*) FROM samples WHERE shift_id < 4 GROUP BY shift_id")
        == ["2|20", "3|20"])

    // The open shift records on, measured live from every row it holds (no fresh start:
    // the deleted rows were no reader's).
    let grown = try #require(
      daemon.waitForStatus(timeout: 60) { ($0.object("shift.distance")?["usable_positions"] as? Int ?? 0) >= 30 },
      "the open shift stopped recording: \(daemon.log)")
    #expect(grown.object("shift")?["id"] as? Int == open)
    let ended = try daemon.controlJSON(["shift", "end"])
    let rows = try DaemonDatabaseProbe.query(database, "SELECT count(*) FROM samples WHERE shift_id = \(open)")
    #expect(
      [(ended.object("distance")?["usable_positions"] as? Int).map(String.init)] == rows.map { Optional($0) },
      "\(ended)")
    #expect(try DaemonDatabaseProbe.query(database, "PRAGMA foreign_key_check") == [])
    #expect(try DaemonDatabaseProbe.integrity(database) == ["ok"])
  }
}
