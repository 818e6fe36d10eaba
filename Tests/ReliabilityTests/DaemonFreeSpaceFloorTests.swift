import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `[Store] FreeSpaceFloor=` in the real `dashpilotd`, its database on a small tmpfs that
/// fills, with an uplink to a real mosquitto: once the room left (the file system's free
/// space and the file's free pages) falls below the floor, the journal says how many days of
/// recording are left, and the shifts the broker acknowledged are deleted, oldest first,
/// each said; the one it never had stays; and when nothing more may go, the journal says so.
@Suite("free-space floor in dashpilotd, on a tmpfs, against a real mosquitto", .serialized, .requiresMosquitto)
struct DaemonFreeSpaceFloorTests {
  @Test(
    "below the floor only acknowledged shifts go, oldest first, each said; then the journal says nothing more may",
    .requiresTmpfs, .requiresFaketime, .requiresCCompiler)
  func acknowledgedShiftsGoOldestFirst() throws {
    let directory = try TestPaths.temporaryDirectory("daemon-floor")
    defer { try? FileManager.default.removeItem(at: directory) }
    let mount = try TmpfsMount(kilobytes: 16_384)
    defer { mount.unmount() }
    let broker = try MosquittoBroker(directory: directory)
    try broker.start()
    defer { broker.stop() }
    // A synchronised wall clock at 2024-05-01T12:00Z: the rate is taken over the days the
    // imports below span.
    let shim = try SynchronisedClockShim.build(in: directory)
    let faked = try FakedWallClock(directory: directory)
    defer { faked.remove() }
    try faked.set(wall: Date(timeIntervalSince1970: TimeInterval(RetentionRig.day("2024-05-01") + 12 * 3_600)))
    var environment = faked.environment
    environment["LD_PRELOAD"] = "\(shim) \(FakedWallClock.library)"
    let database = mount.directory.appendingPathComponent("dashpilot.sqlite").path
    let daemon = try DaemonUnderTest(
      config: """
        [Store]
        FreeSpaceFloor=12M
        [Uplink]
        Host=127.0.0.1
        Port=\(broker.port)
        VehicleID=van-7
        ReconnectDelay=1
        ReconnectDelayMax=1
        """,
      arguments: ["--database", database], environment: environment)
    defer { daemon.stop() }
    try daemon.waitUntilReady(timeout: 30)
    #expect(
      RetentionRig.waitForLog(
        daemon,
        "retention: every shift is kept (KeepDays=forever); below the free-space floor of 12M, shifts the broker has "
          + "acknowledged are deleted, oldest first"), "\(daemon.log)")

    // Six shifts the broker acknowledges, then one it never has.
    var clock = RetentionRig.day("2024-04-28")
    for _ in 0..<6 {
      try RetentionRig.importShift(daemon, start: clock, count: 800)
      clock += 9_000
    }
    #expect(
      daemon.waitForStatus(timeout: 30) {
        $0.object("uplink")?["connected"] as? Bool == true && $0.object("uplink")?["outbox_depth"] as? Int == 0
      } != nil, "\(daemon.log)")
    broker.stop()
    #expect(daemon.waitForStatus(timeout: 30) { $0.object("uplink")?["connected"] as? Bool == false } != nil)
    let neverSent = try RetentionRig.importShift(daemon, start: clock, count: 800)
    #expect(neverSent == 7)
    #expect(mount.freeBytes > 12 << 20, "the file and its log take \(16 << 20 - mount.freeBytes) bytes")
    #expect(daemon.logLines(containing: "retention: deleted") == 0)

    // The card fills but for 600K.
    try Self.fill(mount, leaving: 600 << 10)
    #expect(
      RetentionRig.waitForLog(
        daemon, "no shift the broker has acknowledged is left to delete [reason=retention]", timeout: 120),
      "\(daemon.log)")
    let deleted = daemon.log.split(separator: "\n").filter { $0.contains("retention: deleted shift ") }
    #expect(deleted.count == 6, "\(daemon.log)")
    for (index, line) in deleted.enumerated() {
      #expect(line.contains("retention: deleted shift \(index + 1) ("), "\(line)")
      #expect(line.contains("; 800 samples, 0 capture sessions): "), "\(line)")
      #expect(
        line.contains(" free for recording was below the floor of 12M; the broker had acknowledged it"), "\(line)")
    }
    // How long the card lasts was said as the room fell, as a warning.
    let outlook = daemon.log.split(separator: "\n").filter {
      $0.contains("dashpilotd: warning: store: ") && $0.contains(" free for recording at the last 7 days' rate of ")
    }
    #expect(outlook.count >= 1, "\(daemon.log)")
    #expect(outlook.first.map { $0.contains("of recording left") } == true, "\(outlook)")
    #expect(
      daemon.logLines(containing: "dashpilotd: warning: store: ") >= 2
        && daemon.logLines(containing: "is below the floor of 12M, and no shift the broker has acknowledged") == 1)
    #expect(try RetentionRig.listedShifts(daemon) == [neverSent])
    // status and shifts say it too.
    let status = try daemon.controlJSON(["status"])
    let store = try #require(status.object("store"))
    #expect(store["free_space_floor_bytes"] as? Int == 12 << 20)
    #expect(store["keep_days"] is NSNull)
    let free = try #require(store["free_bytes"] as? Int)
    #expect(free > 0 && free < 12 << 20, "\(store)")
    let daysLeft = try #require(store["days_left"] as? Double)
    #expect(daysLeft < 30, "\(store)")
    let said = try #require(store["outlook"] as? String)
    #expect(said.contains(" free for recording at the last 7 days' rate of "), "\(said)")
    #expect(try daemon.control(["status"]).standardOutput.contains("\n           \(said)\n"))
    let kept = try daemon.controlJSON(["shifts"])["kept"] as? String
    #expect(
      kept
        == "Every shift is kept ([Store] KeepDays=forever); below the card's free-space floor (12M), shifts the "
        + "broker has acknowledged go, oldest first.")
    #expect(
      try DaemonDatabaseProbe.query(database, "SELECT shift_id, count(*) FROM samples GROUP BY shift_id") == ["7|800"])
    #expect(try DaemonDatabaseProbe.integrity(database) == ["ok"])
    #expect(daemon.process.isRunning)
  }

  /// Writes a file of zeros that leaves `bytes` free on the mount.
  static func fill(_ mount: TmpfsMount, leaving bytes: Int) throws {
    let size = mount.freeBytes - bytes
    let filler = mount.directory.appendingPathComponent("filler").path
    let outcome = try ProcessRunner.run(
      URL(fileURLWithPath: "/bin/dd"), ["if=/dev/zero", "of=\(filler)", "bs=4096", "count=\(size / 4096)"], timeout: 60)
    guard outcome.status == 0 else { throw DaemonTestFailure("dd: \(outcome.standardError)") }
  }
}
