import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `[Store] KeepDays=` in the real `dashpilotd` with an uplink to a real mosquitto: of the
/// shifts old enough to go, only those the broker acknowledged whole go. One recorded while
/// the broker was away, whose samples the outbox's bound dropped before they were sent,
/// stays even though its shift message reached the broker later; one the broker never got
/// stays; the journal names both.
@Suite("retention in dashpilotd under an uplink, against a real mosquitto", .serialized, .requiresMosquitto)
struct DaemonRetentionUplinkTests {
  @Test(
    "KeepDays=30 with an uplink: what the broker acknowledged goes, what it never had stays",
    .requiresCCompiler, .requiresGPSD)
  func onlyAcknowledgedShiftsGo() throws {
    let directory = try TestPaths.temporaryDirectory("daemon-retention-uplink")
    defer { try? FileManager.default.removeItem(at: directory) }
    let broker = try MosquittoBroker(directory: directory)
    try broker.start()
    defer { broker.stop() }
    // Unsynchronised whatever this machine's clock is: the first fix dates now (2024-05-01).
    let shim = try SynchronisedClockShim.build(in: directory, synchronised: false)
    let receiver = try GPSDPseudoReceiver(
      nmea: try DaemonSteadyDrive.write(fixes: 600, in: directory), secondsPerLine: 0.25)
    defer { receiver.stop() }
    try receiver.startGPSD()
    // No free-space floor: this test is about age, and the default floor (10 % of the disk)
    // would delete acknowledged shifts by space on a machine whose disk is nearly full.
    let daemon = try DaemonUnderTest(
      config: """
        [Store]
        KeepDays=30
        FreeSpaceFloor=0
        [Uplink]
        Host=127.0.0.1
        Port=\(broker.port)
        VehicleID=van-7
        OutboxBound=3
        ReconnectDelay=1
        ReconnectDelayMax=1
        """,
      arguments: ["--gpsd", "127.0.0.1:\(receiver.port)"], environment: ["LD_PRELOAD": shim])
    defer { daemon.stop() }
    try daemon.waitUntilReady(timeout: 30)
    func drained() -> Bool {
      daemon.waitForStatus(timeout: 30) {
        $0.object("uplink")?["connected"] as? Bool == true && $0.object("uplink")?["outbox_depth"] as? Int == 0
      } != nil
    }
    func disconnected() -> Bool {
      daemon.waitForStatus(timeout: 30) { $0.object("uplink")?["connected"] as? Bool == false } != nil
    }
    // Each import queues two messages, its samples and its shift: each is drained before
    // the next, so the small bound drops nothing of these.
    var imported: [Int] = []
    for day in ["2024-03-01", "2024-03-15", "2024-04-25"] {
      #expect(drained(), "\(daemon.log)")
      imported.append(try RetentionRig.importShift(daemon, start: RetentionRig.day(day)))
    }
    #expect(drained(), "\(daemon.log)")
    #expect(daemon.logLines(containing: "uplink outbox full") == 0)
    let (acknowledged, recent) = (Array(imported.prefix(2)), imported[2])

    broker.stop()
    #expect(disconnected())
    // The bound keeps three entries: the second import drops the first's samples.
    let dropped = try RetentionRig.importShift(daemon, start: RetentionRig.day("2024-03-20"))
    let sentLater = try RetentionRig.importShift(daemon, start: RetentionRig.day("2024-03-25"))
    #expect(
      RetentionRig.waitForLog(
        daemon, "uplink outbox full (bound 3 entries): dropped the oldest 1 entry (sequence 7, 20 samples"))
    try broker.start()
    #expect(drained(), "\(daemon.log)")
    broker.stop()
    #expect(disconnected())
    let neverSent = try RetentionRig.importShift(daemon, start: RetentionRig.day("2024-03-28"))
    #expect([acknowledged[0], acknowledged[1], recent, dropped, sentLater, neverSent] == [Int](1...6))

    // The first fix dates now: the age pass runs.
    receiver.startFeeding()
    #expect(
      RetentionRig.waitForLog(
        daemon,
        "retention: 2 shifts that ended more than 30 days ago are kept until the broker acknowledges them: 4, 6",
        timeout: 60), "\(daemon.log)")
    for (id, day, days) in [(1, "2024-03-01", 61), (2, "2024-03-15", 47), (5, "2024-03-25", 37)] {
      #expect(
        daemon.logLines(
          containing: "retention: deleted shift \(id) (\(day)T00:00:00.000Z to \(day)T00:03:10.000Z; 20 samples, "
            + "0 capture sessions): it ended \(days) days ago, past KeepDays=30; the broker had acknowledged it") == 1,
        "\(daemon.log)")
    }
    #expect(daemon.logLines(containing: "retention: deleted") == 3)
    #expect(try RetentionRig.listedShifts(daemon) == [6, 4, 3])
    let database = daemon.databasePath
    #expect(
      try DaemonDatabaseProbe.query(database, "SELECT shift_id FROM uplink_shift_delivery ORDER BY shift_id") == [
        "3", "4", "6",
      ])
    #expect(
      try DaemonDatabaseProbe.query(
        database,
        "SELECT shift_id, sample_rows, samples_acknowledged, shift_acknowledged FROM uplink_shift_delivery WHERE shift_id IN (4, 6) ORDER BY shift_id"
      )
        == ["4|20|0|1", "6|20|0|0"])
    #expect(try DaemonDatabaseProbe.query(database, "SELECT DISTINCT shift_id FROM uplink_outbox ORDER BY 1") == ["6"])
  }
}
