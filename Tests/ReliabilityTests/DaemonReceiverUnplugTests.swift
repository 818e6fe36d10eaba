import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The receiver pulled out of a running box and plugged back in, under the real dashpilotd
/// and the same real gpsd throughout: the terminal goes away and udev's hotplug rule tells
/// gpsd (`gpsdctl remove`), so gpsd reports the DEVICE deactivated; later a receiver
/// appears again (`gpsdctl add`) and fixes flow. The daemon must end the session with the
/// reason, start a new one when fixes come back, keep everything it stored, and the
/// shift's figure must show the gap between the two.
@Suite("receiver unplugged and plugged back under a running dashpilotd", .serialized, .requiresGPSD)
struct DaemonReceiverUnplugTests {
  /// Fixes fed before the unplug and after the plug.
  static let fixesBefore = 50
  static let fixesAfter = 40
  /// Cycles of the drive that no receiver saw (the car drove on while it was out).
  static let unseenCycles = 25

  static func rows(_ database: String) throws -> [(id: Int, session: Int, time: Int64)] {
    try DaemonDatabaseProbe.query(
      database, "SELECT id, capture_session, fix_time_ms FROM samples WHERE shift_id = 1 ORDER BY id"
    )
    .compactMap { line in
      let fields = line.split(separator: "|")
      guard fields.count == 3, let id = Int(fields[0]), let session = Int(fields[1]), let time = Int64(fields[2])
      else { return nil }
      return (id, session, time)
    }
  }

  /// The next event on `follower` that `match` accepts, within 30 s.
  static func nextEvent(_ follower: RawSocketClient, _ match: ([String: Any]) -> Bool) -> [String: Any]? {
    let deadline = Date(timeIntervalSinceNow: 30)
    while deadline.timeIntervalSinceNow > 0 {
      guard let line = follower.readLine(timeout: deadline.timeIntervalSinceNow) else { return nil }
      guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
        let event = object["event"] as? [String: Any]
      else { continue }
      if match(event) { return event }
    }
    return nil
  }

  @Test("unplugged: the session ends as device deactivated; plugged back: a new session, a gap, nothing lost")
  func unplugAndPlugBack() throws {
    let directory = try TestPaths.temporaryDirectory("receiver-unplug")
    defer { try? FileManager.default.removeItem(at: directory) }
    let drive = RealTimeDrive()
    let first = try PseudoTerminalReceiver(drive: drive, cycles: 0..<RealTimeDrive.maximumCycles)
    defer { first.unplug() }
    let gpsd = try HotplugGPSD(directory: directory, device: first.devicePath)
    defer { gpsd.stop() }
    let daemon = try DaemonUnderTest(arguments: ["--gpsd", "127.0.0.1:\(gpsd.port)"])
    defer { daemon.stop() }
    try daemon.waitUntilReady(timeout: 30)
    _ = try #require(
      daemon.waitForStatus(timeout: 30) { $0.object("gpsd")?["connected"] as? Bool == true }, "\(daemon.log)")
    #expect(try daemon.controlJSON(["shift", "start"])["id"] as? Int == 1)
    first.startFeeding()

    let plugged = try #require(
      daemon.waitForStatus(timeout: 30) {
        $0.object("capture")?["session"] is String && $0.object("gpsd")?["device"] as? String == first.devicePath
      }, "no session with the first receiver: \(daemon.log)")
    let firstSession = try #require(plugged.object("capture")?["session"] as? String)
    #expect(first.waitForCycle(drive.leadIn + Self.fixesBefore, timeout: 60))
    _ = try #require(
      daemon.waitForStatus(timeout: 30) {
        ($0.object("shift.distance")?["usable_positions"] as? Int ?? 0) >= Self.fixesBefore / 2
      }, "no rows stored: \(daemon.log)")

    // A client following the daemon's events, as a dashboard would.
    let follower = try RawSocketClient(path: daemon.socketPath)
    #expect(follower.ask(#"{"v":1,"id":1,"cmd":"events"}"#)?["ok"] as? Bool == true)

    // Pulled out: the terminal closes, then udev tells gpsd.
    let committed = try DaemonDatabaseProbe.sampleIDs(daemon.databasePath, shift: 1)
    let lastFed = try #require(first.unplug())
    try gpsd.remove(first.devicePath)
    let unplugged = try #require(
      daemon.waitForStatus(timeout: 30) { status in
        status.object("capture")?["session"] as? String == nil && status.object("gpsd")?["device"] as? String == nil
      }, "the session never ended: \(daemon.log)")
    #expect(unplugged.object("gpsd")?["connected"] as? Bool == true)
    #expect(unplugged.object("shift")?["id"] as? Int == 1)
    let log = daemon.log
    #expect(log.contains("receiver \(first.devicePath) removed"), "\(log)")
    #expect(
      log.contains("capture session \(firstSession) of shift 1 ended: device \(first.devicePath) deactivated"), "\(log)"
    )
    let endedEvent = try #require(
      Self.nextEvent(follower) { $0["type"] as? String == "capture.session_ended" }, "no capture.session_ended event")
    let endedFields = endedEvent["fields"] as? [String: Any] ?? [:]
    #expect(endedFields["session"] as? String == firstSession)
    #expect(endedFields["reason"] as? String == "device \(first.devicePath) deactivated", "\(endedEvent)")
    #expect(
      try DaemonDatabaseProbe.query(daemon.databasePath, "SELECT end_reason FROM capture_sessions ORDER BY id")
        == ["device_deactivated"])
    #expect(
      try DaemonDatabaseProbe.query(daemon.databasePath, "SELECT end_device FROM capture_sessions ORDER BY id")
        == [first.devicePath])
    // Ending the session wrote what was pending (up to a second of fixes): every fix of
    // the first receiver up to the last one or two (gpsd may not have read the last burst
    // before the terminal went), with no hole.
    let before = try Self.rows(daemon.databasePath)
    #expect(committed.isSubset(of: Set(before.map(\.id))))
    #expect(Set(before.map(\.session)).count == 1)
    let lastFedTime = RealTimeDrive.fixTimeMilliseconds(cycle: lastFed)
    let newestBefore = try #require(before.last?.time)
    #expect(newestBefore <= lastFedTime && newestBefore >= lastFedTime - 400, "\(newestBefore) vs fed \(lastFedTime)")
    #expect(zip(before, before.dropFirst()).allSatisfy { $1.time - $0.time == 200 }, "a hole in the first session")

    // Plugged back: a receiver appears (a new terminal) and the drive goes on further on.
    let secondFirstCycle = lastFed + 1 + Self.unseenCycles
    let second = try PseudoTerminalReceiver(drive: drive, cycles: secondFirstCycle..<RealTimeDrive.maximumCycles)
    defer { second.unplug() }
    try gpsd.add(second.devicePath)
    second.startFeeding()
    let replugged = try #require(
      daemon.waitForStatus(timeout: 30) { status in
        guard let session = status.object("capture")?["session"] as? String else { return false }
        return session != firstSession && status.object("gpsd")?["device"] as? String == second.devicePath
      }, "no new session after the plug: \(daemon.log)")
    let secondSession = try #require(replugged.object("capture")?["session"] as? String)
    let startedEvent = try #require(
      Self.nextEvent(follower) { $0["type"] as? String == "capture.session_started" },
      "no capture.session_started event")
    #expect((startedEvent["fields"] as? [String: Any])?["session"] as? String == secondSession)
    #expect(daemon.log.contains("receiver \(second.devicePath) active"))
    #expect(daemon.log.contains("capture session \(secondSession) started for shift 1"))
    #expect(second.waitForCycle(secondFirstCycle + Self.fixesAfter, timeout: 60))

    // The live figure (no shift window: the drive's fix times are years before the
    // shift's wall-clock end) shows the one gap between the two sessions.
    let live = try #require(
      daemon.waitForStatus(timeout: 30) { status in
        (status.object("shift.distance")?["usable_positions"] as? Int ?? 0) > before.count
          && status.object("shift.distance")?["segments"] as? Int == 2
      }, "the figure never had the second session: \(daemon.log)")
    let distance = try #require(live.object("shift.distance"))
    #expect(distance["gaps"] as? Int == 1, "\(distance)")
    #expect(distance["partial"] as? Bool == true || distance["partial"] as? Int == 1, "\(distance)")
    let ended = try daemon.controlJSON(["shift", "end"])
    #expect((ended.object("distance")?["gaps"] as? Int ?? 0) >= 1)
    #expect(ended.object("distance")?["segments"] as? Int == 2)
    let shown = try daemon.controlJSON(["shift", "show", "1"])
    #expect(shown["capture_sessions"] as? Int == 2)
    // The gap between the two sessions names the receiver that went.
    let causes = (shown["gaps"] as? [[String: Any]] ?? []).map { $0["cause"] as? String }
    #expect(causes.contains("receiver \(first.devicePath) removed"), "\(causes)")

    // Nothing stored before is lost; the second session holds the second receiver's fixes.
    let after = try Self.rows(daemon.databasePath)
    #expect(Array(after.prefix(before.count)).map(\.id) == before.map(\.id))
    let secondRows = after.dropFirst(before.count)
    #expect(Set(secondRows.map(\.session)).count == 1)
    #expect(secondRows.first.map { $0.time >= RealTimeDrive.fixTimeMilliseconds(cycle: secondFirstCycle) } == true)
    #expect(secondRows.count >= Self.fixesAfter / 2, "\(secondRows.count) rows after the plug")
    #expect(
      zip(secondRows, secondRows.dropFirst()).allSatisfy { $1.time - $0.time == 200 }, "a hole in the second session")
    #expect(try DaemonDatabaseProbe.integrity(daemon.databasePath) == ["ok"])
  }
}
