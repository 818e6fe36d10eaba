import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The uplink of the real `dashpilotd` recording a shift from a real gpsd, against a real
/// mosquitto and a real consumer, through the faults a car meets: the daemon killed with
/// SIGKILL while it publishes, the broker gone mid-shift, TLS with the right and the wrong
/// certificate authority. Whatever happens, once the outbox has drained the consumer's
/// de-duplicated set is exactly what the store holds, and capture never notices.
@Suite("uplink under a live gpsd feed: kills, broker outage, TLS", .serialized, .requiresMosquitto, .requiresGPSD)
struct UplinkLiveCaptureTests {
  static let kills = 5

  /// After the shift ended: waits for the outbox to drain, then checks the consumer
  /// against the store: every stored position arrived at least once, the de-duplicated
  /// positions equal the store's (same count, same order), sequences have no hole, copies
  /// of a key are byte-identical, and the shift's figure is the one `shift end` gave.
  /// Returns the delivery for further checks.
  static func expectDeliveredEqualsStore(
    _ rig: UplinkLiveRig, _ daemon: DaemonUnderTest, ended: [String: Any]
  ) throws -> UplinkFleetDelivery {
    let drained = daemon.waitForStatus(timeout: 90) { $0.uplink["connected"] as? Bool == true && $0.outboxDepth == 0 }
    #expect(drained != nil, "the outbox never drained: \(daemon.log)")
    #expect(drained?.uplink["last_error"] is NSNull)
    let stored = try rig.storedPositions(shift: 1)
    #expect(stored.count > 0)
    let delivery = rig.waitForDelivery(timeout: 30) {
      $0.uniquePositions(shift: 1).count >= stored.count && !$0.messages("shift").isEmpty
    }
    #expect(delivery.keysWithDifferingCopies == [])
    let received = Set(delivery.allPositions)
    let missing = stored.filter { !received.contains($0) }
    #expect(missing.isEmpty, "\(missing.count) stored positions never arrived, first \(missing.prefix(3))")
    let unique = delivery.uniquePositions(shift: 1)
    #expect(unique.count == stored.count)
    #expect(unique == stored)
    let sequences = delivery.unique.map(\.sequence)
    #expect(sequences == Array(1...(sequences.last ?? 0)), "holes in the sequence")
    let shifts = delivery.messages("shift")
    #expect(shifts.count == 1)
    #expect(shifts.first?.json["summary"] as? String == ended["summary"] as? String)
    let figure = shifts.first?.json["distance"] as? [String: Any]
    #expect(figure?["usable_positions"] as? Int == ended.object("distance")?["usable_positions"] as? Int)
    #expect(figure?["gaps"] as? Int == ended.object("distance")?["gaps"] as? Int)
    // The shift's figure is the last thing its store queued, and the fleet then hears that
    // it ended; it heard that it started first of all.
    #expect(shifts.first.map { $0.sequence + 1 } == sequences.last)
    let events = delivery.messages("events").map { ($0.json["event"] as? [String: Any])?["type"] as? String }
    #expect(events.first == "shift.started")
    #expect(events.last == "shift.ended")
    #expect(delivery.unique.first?.kind == "events")
    return delivery
  }

  /// The session messages against the store's capture sessions: one start (capture's own
  /// reason, the shift) and one end each, in the store's order.
  static func expectSessionMessages(
    _ delivery: UplinkFleetDelivery, database: String, endReasons: [String]
  ) throws {
    let keys = try DaemonDatabaseProbe.query(database, "SELECT session_key FROM capture_sessions ORDER BY id")
    let sessions = delivery.messages("session")
    let starts = sessions.filter { $0.json["event"] as? String == "start" }
    let ends = sessions.filter { $0.json["event"] as? String == "end" }
    #expect(starts.map { $0.json["capture_session"] as? String } == keys.map { Optional($0) })
    #expect(starts.map { $0.json["reason"] as? String } == keys.map { _ in "fixes_started" })
    #expect(starts.map(\.shift) == keys.map { _ in 1 })
    #expect(ends.map { $0.json["capture_session"] as? String } == keys.map { Optional($0) })
    #expect(ends.compactMap { $0.json["reason"] as? String } == endReasons)
    #expect(ends.map(\.shift) == keys.map { _ in 1 })
    #expect(
      try DaemonDatabaseProbe.query(database, "SELECT end_reason FROM capture_sessions ORDER BY id") == endReasons)
  }

  @Test("SIGKILL while publishing, 5 times, restarted on the same database: the de-duplicated set equals the store")
  func killedWhilePublishing() throws {
    let rig = try UplinkLiveRig("uplink-sigkill", fixes: 30_000, secondsPerLine: 0.0025)
    defer { rig.stop() }
    var random = SeededGenerator(seed: 0x5EED_0009)
    var daemon = try rig.startDaemon()
    defer { daemon.stop() }
    #expect(try daemon.controlJSON(["shift", "start"])["id"] as? Int == 1)
    rig.receiver.startFeeding()
    var stored = 0
    for kill in 1...Self.kills {
      // Recording and publishing: rows beyond the last kill, and new samples at the consumer.
      let heard = rig.delivery.messages("samples").count
      let recording = daemon.waitForStatus(timeout: 60) {
        $0.usablePositions > stored && $0.object("capture")?["session"] is String
          && $0.uplink["connected"] as? Bool == true
      }
      #expect(recording != nil, "kill \(kill): not recording and connected: \(daemon.log)")
      let publishing = rig.waitForDelivery(timeout: 30) { $0.messages("samples").count > heard }
      #expect(publishing.messages("samples").count > heard, "kill \(kill): nothing published")
      // Even kills freeze the broker first, so entries are surely published and not yet
      // acknowledged when the daemon dies: the broker reads them after the kill and the
      // restarted daemon publishes them again. Odd kills land at a seeded random moment.
      let frozen = kill % 2 == 0
      if frozen {
        rig.broker.pause()
        let waiting = daemon.waitForStatus(timeout: 30) { ($0.uplink["in_flight"] as? Int ?? 0) > 0 }
        #expect(waiting != nil, "kill \(kill): nothing in flight with the broker frozen")
      } else {
        usleep(UInt32.random(in: 0...800_000, using: &random))
      }
      daemon.signal(SIGKILL)
      #expect(daemon.waitForExit(timeout: 10) == SIGKILL)
      #expect(daemon.process.terminationReason == .uncaughtSignal)
      daemon.stop()
      if frozen { rig.broker.resume() }
      #expect(try DaemonDatabaseProbe.integrity(rig.database) == ["ok"], "kill \(kill)")
      stored = try rig.storedPositions(shift: 1).count
      daemon = try rig.startDaemon()
    }
    let last = daemon.waitForStatus(timeout: 60) { $0.usablePositions > stored }
    #expect(last != nil, "no rows after the last restart: \(daemon.log)")
    let ended = try daemon.controlJSON(["shift", "end"])
    #expect(ended["id"] as? Int == 1)
    rig.receiver.stop()

    let delivery = try Self.expectDeliveredEqualsStore(rig, daemon, ended: ended)
    try Self.expectSessionMessages(
      delivery, database: rig.database,
      endReasons: Array(repeating: "daemon restarted", count: Self.kills) + ["capture_stopped"])
    // What was in flight at the frozen kills arrived twice: at-least-once was exercised.
    #expect(delivery.duplicateCount > 0)
    // Every restart said online; the broker said offline for each killed connection.
    let status = rig.consumer.messages.filter { $0.topic == "dashpilot/\(UplinkLiveRig.vehicle)/status" }
    #expect(status.filter { $0.payload.contains(#""state":"offline""#) }.count >= Self.kills)
    #expect(status.filter { $0.payload.contains(#""state":"online""#) }.count >= Self.kills + 1)
  }

  @Test("the broker stopped mid-shift and restarted: capture goes on, the outbox grows, then drains; nothing lost")
  func brokerOutageMidShift() throws {
    let rig = try UplinkLiveRig("uplink-outage", fixes: 30_000, secondsPerLine: 0.0025)
    defer { rig.stop() }
    let daemon = try rig.startDaemon()
    defer { daemon.stop() }
    #expect(try daemon.controlJSON(["shift", "start"])["id"] as? Int == 1)
    rig.receiver.startFeeding()
    let before = daemon.waitForStatus(timeout: 60) {
      $0.usablePositions > 0 && $0.uplink["connected"] as? Bool == true && $0.object("capture")?["session"] is String
    }
    let session = try #require(before?.object("capture")?["session"] as? String, "not recording: \(daemon.log)")
    #expect(!rig.waitForDelivery(timeout: 30) { !$0.messages("samples").isEmpty }.messages("samples").isEmpty)

    rig.broker.stop()
    let down = daemon.waitForStatus(timeout: 60) {
      $0.uplink["connected"] as? Bool == false && $0.uplink["last_error"] is String && ($0.outboxDepth ?? 0) > 0
    }
    let first = try #require(down, "status never showed the outage: \(daemon.log)")
    // Capture does not notice: rows keep growing in the same session while the outbox grows.
    let later = daemon.waitForStatus(timeout: 60) {
      $0.usablePositions > first.usablePositions + 200 && ($0.outboxDepth ?? 0) > (first.outboxDepth ?? 0) + 2
    }
    let second = try #require(later, "rows or outbox did not grow during the outage: \(daemon.log)")
    #expect(second.uplink["connected"] as? Bool == false)
    #expect(second.object("capture")?["session"] as? String == session)
    #expect(second.object("store")?["ok"] as? Bool == true)
    let lastError = try #require(second.uplink["last_error"] as? String)
    #expect(lastError.hasPrefix("uplink: "))
    #expect(lastError.contains("127.0.0.1:\(rig.broker.port)"))
    #expect(daemon.log.contains(lastError))
    let line = try daemon.control(["status"]).standardOutput.split(separator: "\n").first { $0.hasPrefix("uplink") }
    #expect(
      line?.hasPrefix("uplink     not connected to 127.0.0.1:\(rig.broker.port) · outbox ") == true, "\(line ?? "")")
    #expect(line?.contains(" · last error: uplink: ") == true, "\(line ?? "")")

    try rig.broker.start()
    let back = daemon.waitForStatus(timeout: 60) { $0.uplink["connected"] as? Bool == true }
    #expect(back != nil, "never reconnected: \(daemon.log)")
    #expect(daemon.waitForStatus(timeout: 60) { $0.usablePositions > second.usablePositions + 100 } != nil)
    let ended = try daemon.controlJSON(["shift", "end"])
    rig.receiver.stop()

    let delivery = try Self.expectDeliveredEqualsStore(rig, daemon, ended: ended)
    // One session from first fix to shift end: the outage never touched capture.
    try Self.expectSessionMessages(delivery, database: rig.database, endReasons: ["capture_stopped"])
    #expect(delivery.messages("session").first?.json["capture_session"] as? String == session)
  }

  @Test("TLS with the test's CA: the shift's messages arrive and equal the store")
  func tlsDelivers() throws {
    let certificatesDirectory = try TestPaths.temporaryDirectory("uplink-tls-ca")
    defer { try? FileManager.default.removeItem(at: certificatesDirectory) }
    let certificates = try MosquittoCertificates.make(in: certificatesDirectory)
    let rig = try UplinkLiveRig("uplink-tls-live", fixes: 10_000, secondsPerLine: 0.0025, certificates: certificates)
    defer { rig.stop() }
    let daemon = try rig.startDaemon(caFile: certificates.caFile)
    defer { daemon.stop() }
    #expect(try daemon.controlJSON(["shift", "start"])["id"] as? Int == 1)
    rig.receiver.startFeeding()
    let recording = daemon.waitForStatus(timeout: 60) {
      $0.usablePositions > 300 && $0.uplink["connected"] as? Bool == true
    }
    #expect(recording != nil, "not recording over TLS: \(daemon.log)")
    #expect(daemon.log.contains("uplink: connected to 127.0.0.1:\(rig.broker.port)"))
    // The dashboards' retained live status shows the car on the drive, in the open shift.
    let liveTopic = "dashpilot/\(UplinkLiveRig.vehicle)/live"
    var live: [String: Any] = [:]
    let liveDeadline = Date(timeIntervalSinceNow: 30)
    repeat {
      live = rig.consumer.messages.last { $0.topic == liveTopic }.map { UplinkDaemonTests.payload($0.payload) } ?? [:]
      if (live["shift"] as? [String: Any])?["id"] as? Int == 1 { break }
      usleep(200_000)
    } while Date() < liveDeadline
    #expect(live["schema"] as? String == "dashpilot.live/1")
    let position = live["position"] as? [String: Any]
    #expect(position?["lon"] as? Double == -0.12)
    #expect(((position?["lat"] as? Double) ?? 0) >= 51.5)
    let liveShift = live["shift"] as? [String: Any]
    #expect(liveShift?["id"] as? Int == 1)
    #expect((((liveShift?["distance"] as? [String: Any])?["usable_positions"] as? Int) ?? 0) > 0)
    let ended = try daemon.controlJSON(["shift", "end"])
    rig.receiver.stop()
    let delivery = try Self.expectDeliveredEqualsStore(rig, daemon, ended: ended)
    try Self.expectSessionMessages(delivery, database: rig.database, endReasons: ["capture_stopped"])
  }

  @Test("TLS with the wrong CA: a status line and a log line name the certificate failure; capture goes on")
  func tlsWrongAuthority() throws {
    let certificatesDirectory = try TestPaths.temporaryDirectory("uplink-tls-cas")
    defer { try? FileManager.default.removeItem(at: certificatesDirectory) }
    let certificates = try MosquittoCertificates.make(in: certificatesDirectory)
    let strangerDirectory = certificatesDirectory.appendingPathComponent("stranger")
    try FileManager.default.createDirectory(at: strangerDirectory, withIntermediateDirectories: true)
    let stranger = try MosquittoCertificates.make(in: strangerDirectory, caName: "Someone Else")
    let rig = try UplinkLiveRig("uplink-tls-wrong", fixes: 10_000, secondsPerLine: 0.0025, certificates: certificates)
    defer { rig.stop() }
    let daemon = try rig.startDaemon(caFile: stranger.caFile)
    defer { daemon.stop() }
    #expect(try daemon.controlJSON(["shift", "start"])["id"] as? Int == 1)
    rig.receiver.startFeeding()

    let refused = daemon.waitForStatus(timeout: 60) {
      ($0.uplink["last_error"] as? String)?.contains("certificate verify failed") == true
        && $0.usablePositions > 200 && ($0.outboxDepth ?? 0) > 2
    }
    let status = try #require(refused, "no certificate error with rows stored: \(daemon.log)")
    let lastError = try #require(status.uplink["last_error"] as? String)
    #expect(lastError.hasPrefix("uplink: connecting to 127.0.0.1:\(rig.broker.port) failed: A TLS error occurred"))
    #expect(status.uplink["connected"] as? Bool == false)
    #expect(status.object("store")?["ok"] as? Bool == true)
    #expect(status.object("capture")?["session"] is String)
    #expect(daemon.log.contains(lastError))
    let line = try daemon.control(["status"]).standardOutput.split(separator: "\n").first { $0.hasPrefix("uplink") }
    #expect(line?.hasPrefix("uplink     not connected to 127.0.0.1:\(rig.broker.port) · outbox ") == true)
    #expect(line?.contains("certificate verify failed") == true, "\(line ?? "")")
    // Capture goes on: rows keep growing in the same session.
    let session = status.object("capture")?["session"] as? String
    let later = daemon.waitForStatus(timeout: 60) { $0.usablePositions > status.usablePositions + 200 }
    #expect(later?.object("capture")?["session"] as? String == session)
    #expect(rig.delivery.messages("samples").isEmpty)
    let ended = try daemon.controlJSON(["shift", "end"])
    #expect(ended["id"] as? Int == 1)
    let rows = try DaemonDatabaseProbe.query(rig.database, "SELECT count(*) FROM samples").first.flatMap { Int($0) }
    #expect((rows ?? 0) > 400)
  }
}
