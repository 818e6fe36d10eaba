import Foundation
import Office
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The whole way, all real: a car's recorded drive (a Garmin receiver from Reno to Lake
/// Tahoe, from ../shared/real-logs) played by gpsfake into gpsd, the real dashpilotd
/// recording it with its uplink on, mosquitto, dashpilot-officed and PostGIS. The office's
/// geodesic length of the shift agrees with the box's own figure within 0.5 %, the gap in
/// the recording (798 s without fixes) is two stretches, the office holds every position
/// the box kept, and the office draws the shift exactly as `dashpilotctl report` does.
@Suite(.requiresPostGIS, .requiresMosquitto, .requiresGPSFake, .requiresSharedRealLogs)
struct OfficeDriveTests {
  static let vehicle = "reno-car"

  /// 00:30:00 to 00:53:18 of the recording (receiver time): 5 minutes of driving, the
  /// 798-second hole the published file has, and 5 minutes more; 3,548 lines, 273 fixes.
  static func drive(in directory: URL) throws -> URL {
    let recording = SharedLogs.realLogs.appendingPathComponent("dotmorten_garmin_car_reno_tahoe.nmea")
    let lines = try String(contentsOf: recording, encoding: .utf8).split(
      separator: "\n", omittingEmptySubsequences: false)
    func rmcTime(_ line: Substring) -> Substring? {
      guard line.hasPrefix("$GPRMC,") else { return nil }
      let time = line.split(separator: ",", omittingEmptySubsequences: false)[1]
      return time < "120000" ? time : nil  // the evening before midnight is the drive's first part
    }
    guard let start = lines.firstIndex(where: { rmcTime($0).map { $0 >= "003000" } ?? false }),
      let end = lines.firstIndex(where: { rmcTime($0).map { $0 > "005318" } ?? false })
    else { throw TestProcessError("the Reno-Tahoe recording has no 00:30-00:53 part") }
    // gpsfake starts as soon as the daemon connects, before the test can open the shift:
    // the first fix's sentences, played 100 times first (2.6 s), give it that moment.
    let padding = Array(repeating: lines[start..<start + 13], count: 100).flatMap { $0 }
    let url = directory.appendingPathComponent("reno-tahoe-gap.nmea")
    try ((padding + lines[start..<end]).joined(separator: "\n") + "\n").write(
      to: url, atomically: true, encoding: .utf8)
    return url
  }

  /// The drive's last fix, as gpsd 3.22 dates it (1024 weeks after the receiver's 2005).
  static let lastFix = "2025-05-12T00:53:18.000Z"

  @Test func aRecordedDriveReachesPostGISAsTheBoxMeasuredIt() throws {
    let rig = try OfficeRig("drive")
    try rig.start(workers: 2)
    let fake = try GPSDFake(log: try Self.drive(in: rig.directory), cycle: 0.002, startTimeout: 20)
    defer { fake.stop() }
    let daemon = try DaemonUnderTest(
      config: """
        [Shift]
        Start=manual
        [Uplink]
        Host=127.0.0.1
        Port=\(rig.broker.port)
        VehicleID=\(Self.vehicle)
        KeepAlive=5
        ReconnectDelay=1
        ReconnectDelayMax=2
        """,
      arguments: ["--gpsd", "127.0.0.1:\(fake.port)"], environment: ["TZ": "UTC"])
    defer { daemon.stop() }
    try daemon.waitUntilReady(timeout: 30)
    // A shift opened by hand: a replayed recording's fixes are long past the wall clock.
    var opened = false
    for _ in 0..<100 where !opened {
      opened = (try? daemon.controlJSON(["shift", "start"])) != nil
      if !opened { usleep(50_000) }
    }
    #expect(opened)
    var positions = -1
    guard
      daemon.waitForStatus(
        timeout: 90,
        { status in
          guard status.object("gpsd")?["last_fix_at"] as? String == Self.lastFix else { return false }
          let now = status.object("shift.distance")?["usable_positions"] as? Int ?? -1
          defer { positions = now }
          return now == positions
        }) != nil
    else { throw DaemonTestFailure("the drive was not recorded: \(daemon.log)") }
    fake.stop()
    let ended = try daemon.controlJSON(["shift", "end"])
    let shift = try #require(ended["id"] as? Int, "\(ended)")
    guard
      let drained = daemon.waitForStatus(timeout: 30, { ($0.object("uplink")?["outbox_depth"] as? Int) == 0 }),
      drained.object("uplink")?["connected"] as? Bool == true
    else { throw DaemonTestFailure("the box never emptied its outbox: \(daemon.log)") }
    try rig.waitFor("the shift message stored", timeout: 30) {
      try rig.database.psql("SELECT count(*) FROM shifts WHERE vehicle = '\(Self.vehicle)'") == "1"
    }
    // Every message the box queued, once: the ledger's keys run 1...N without a hole.
    try rig.waitFor("every sequence received", timeout: 30) {
      try rig.database.psql(
        "SELECT count(*) = max(sequence) FROM ledger WHERE vehicle = '\(Self.vehicle)'") == "t"
    }
    #expect(try rig.database.count("holes") == 0)
    #expect(try rig.database.count("rejected") == 0)

    let figures = try rig.database.psql(
      """
      SELECT box_metres, metres, box_segments, stretches, box_gaps FROM shift_distance
      WHERE vehicle = '\(Self.vehicle)' AND shift = \(shift)
      """
    ).split(separator: "|").map { Double($0) ?? -1 }
    #expect(figures.count == 5)
    let (boxMetres, officeMetres) = (figures[0], figures[1])
    #expect(boxMetres > 5_000, "the box measured \(boxMetres) m")
    #expect(abs(officeMetres / boxMetres - 1) < 0.005, "office \(officeMetres) m, box \(boxMetres) m")
    #expect(figures[2] == 2 && figures[3] == 2, "segments \(figures[2]), stretches \(figures[3])")
    let gap = try rig.database.psql(
      """
      SELECT extract(epoch FROM b.started_at - a.ended_at) FROM stretches a JOIN stretches b
        ON b.vehicle = a.vehicle AND b.shift = a.shift AND b.stretch = a.stretch + 1
      WHERE a.vehicle = '\(Self.vehicle)' AND a.shift = \(shift)
      """)
    // The recording's 798 s hole, widened by the fixes capture judged not worth keeping.
    let seconds = try #require(Double(gap))
    #expect(seconds >= 798 && seconds < 900, "\(seconds) s between the stretches")
    print("office drive: box \(boxMetres) m, office \(officeMetres) m, gap \(seconds) s")
    #expect(
      try rig.database.psql("SELECT count(*) FROM samples WHERE vehicle = '\(Self.vehicle)' AND shift = \(shift)")
        == rig.database.psql(
          "SELECT usable_positions FROM shifts WHERE vehicle = '\(Self.vehicle)' AND shift = \(shift)"))

    // One drawing: the office's from its rows, the box's from its own, alike but the title.
    let boxFile = rig.directory.appendingPathComponent("box.svg").path
    let officeFile = rig.directory.appendingPathComponent("office.svg").path
    #expect(try daemon.control(["report", String(shift), "-o", boxFile], environment: ["TZ": "UTC"]).status == 0)
    let office = try ProcessRunner.run(
      DaemonBinaries.url("dashpilot-officed"),
      ["report", Self.vehicle, String(shift), "-o", officeFile, "--database", rig.database.conninfo],
      environment: ProcessInfo.processInfo.environment.merging(["TZ": "UTC"]) { $1 }, timeout: 60)
    #expect(office.status == 0, "\(office.standardError)")
    let box = try String(contentsOfFile: boxFile, encoding: .utf8)
    let drawn = try String(contentsOfFile: officeFile, encoding: .utf8)
    #expect(drawn.replacing(">\(Self.vehicle) · Shift #", with: ">Shift #") == box)
  }
}
