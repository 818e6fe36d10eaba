import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The office asks for what it missed, all real: `dashpilotd` records `DaemonStopsDrive` from
/// a real gpsd while its broker (a real mosquitto) is down, with `OutboxBound=10`, so the
/// outbox drops its oldest messages and the office (a `mosquitto_sub` with a persistent
/// session) sees a hole. `shift.resend` then fills it: first a range over the fleet's command
/// topic, then the whole shift through `dashpilotctl shift resend`. The office keeps one copy
/// of each sample by vehicle, shift and time, as docs/uplink-messages.md says, and ends with
/// exactly the shift's rows.
@Suite(
  "shift.resend across a dropped outbox, against a real gpsd and mosquitto", .serialized, .requiresMosquitto,
  .requiresGPSD)
struct FleetResendTests {
  /// What the office received of one kind of message (`samples`, `stop`, `shift`, `reply`).
  static func received(_ consumer: MosquittoSubscriber, _ kind: String) -> [[String: Any]] {
    consumer.messages.filter { $0.topic == "\(FleetRig.prefix)/\(kind)" }.compactMap {
      try? JSONSerialization.jsonObject(with: Data($0.payload.utf8)) as? [String: Any]
    }
  }

  /// The office's samples, one per vehicle, shift and time: the first copy of each, as
  /// "MILLISECONDS LATE7 LONE7" by its key.
  static func officeSamples(_ consumer: MosquittoSubscriber) -> [String: String] {
    var kept: [String: String] = [:]
    for message in received(consumer, "samples") {
      for sample in message["samples"] as? [[String: Any]] ?? [] {
        let key =
          "\(message["vehicle"] as? String ?? "?")/\(message["shift"] as? Int ?? 0)/\(sample["time"] as? String ?? "?")"
        if kept[key] == nil { kept[key] = UplinkFleetDelivery.positionKey(sample) }
      }
    }
    return kept
  }

  static func sortedByTime(_ positions: some Collection<String>) -> [String] {
    positions.sorted { (Int64($0.split(separator: " ")[0]) ?? 0) < (Int64($1.split(separator: " ")[0]) ?? 0) }
  }

  @Test("a hole from a dropped outbox is filled: a range over MQTT, then the whole shift from dashpilotctl")
  func resendFillsTheHole() throws {
    let rig = try FleetRig("fleet-resend")
    defer { rig.stop() }
    let office = try MosquittoSubscriber(
      port: rig.broker.port, topic: "\(FleetRig.prefix)/#", directory: rig.directory, clientID: "office")
    defer { office.stop() }
    try office.waitUntilSubscribed(probeTopic: "\(FleetRig.prefix)/probe")
    let receiver = try GPSDPseudoReceiver(nmea: try DaemonStopsDrive.write(in: rig.directory), secondsPerLine: 0.0025)
    defer { receiver.stop() }
    try receiver.startGPSD()
    let daemon = try rig.startDaemon(extra: ["OutboxBound=10"], gpsd: "127.0.0.1:\(receiver.port)")
    defer { daemon.stop() }
    #expect(daemon.waitForStatus(timeout: 20) { $0.object("gpsd")?["connected"] as? Bool == true } != nil)
    #expect(try daemon.controlJSON(["shift", "start"])["id"] as? Int == 1)

    // Offline for the whole drive: the outbox keeps the newest ten messages.
    rig.broker.stop()
    #expect(daemon.waitForStatus(timeout: 30) { $0.uplink["connected"] as? Bool == false } != nil)
    receiver.startFeeding()
    try #require(daemon.waitUntilRecorded(through: DaemonStopsDrive.lastFix) != nil, "\(daemon.log)")
    let ended = try daemon.controlJSON(["shift", "end"])
    #expect(daemon.waitForLog("uplink outbox full (bound 10 entries): dropped the oldest", timeout: 10) != nil)
    try rig.broker.start()
    try #require(Self.drained(rig.database), "never drained: \(daemon.log)")
    let acknowledged = "SELECT samples_acknowledged FROM uplink_shift_delivery WHERE shift_id = 1"
    let acknowledgedBefore = try DaemonDatabaseProbe.query(rig.database, acknowledged)
    let stored = try DaemonDatabaseProbe.query(
      rig.database,
      "SELECT fix_time_ms || ' ' || latitude_e7 || ' ' || longitude_e7 FROM samples WHERE shift_id = 1 ORDER BY id")
    #expect(stored.count > 400, "\(stored.count) rows")
    let shown = try daemon.controlJSON(["shift", "show", "1"])
    let stops = try #require(shown["stops"] as? [[String: Any]])
    #expect(stops.count == 2, "\(stops)")

    // The office's view: the shift message came, the oldest samples did not.
    #expect(Self.waitFor(office) { !Self.received($0, "shift").isEmpty })
    // The last message the box queued (the events after the shift message among them).
    let lastSequence =
      ["samples", "session", "stop", "shift", "events"].flatMap { Self.received(office, $0) }
      .compactMap { $0["sequence"] as? Int }.max() ?? 0
    let before = Self.officeSamples(office)
    #expect(before.count < stored.count && !before.isEmpty, "\(before.count) of \(stored.count)")
    #expect(Set(before.values).isSubset(of: Set(stored)))
    let firstTime = try #require(before.keys.map { String($0.split(separator: "/")[2]) }.min())
    let firstMilliseconds = try #require(UplinkFleetDelivery.epochMilliseconds(firstTime))

    // 1. Over MQTT, the part before what arrived: `until` the first sample the office has.
    try rig.dispatcher.sendAndWait(
      FleetRig.command("office-resend-1", "shift.resend", args: #"{"id":1,"until":"\#(firstTime)"}"#))
    #expect(Self.waitFor(office) { Self.received($0, "reply").contains { $0["id"] as? String == "office-resend-1" } })
    let reply = try #require(Self.received(office, "reply").first { $0["id"] as? String == "office-resend-1" })
    let result = try #require(reply["result"] as? [String: Any], "\(reply)")
    let inRange = stored.filter { (Int64($0.split(separator: " ")[0]) ?? .max) <= firstMilliseconds }.count
    let stopsInRange = stops.filter { ($0["arrival"] as? String ?? "") <= firstTime }.count
    #expect(result["samples"] as? Int == inRange)
    #expect(result["stops"] as? Int == stopsInRange)
    #expect(result["shift_message"] as? Bool == true)
    #expect(result["messages"] as? Int == (inRange + 999) / 1000 + stopsInRange + 1)
    #expect(result["first_sequence"] as? Int == lastSequence + 1, "\(result)")
    // Now the office has every row, once each.
    #expect(
      Self.waitFor(office) { Self.officeSamples($0).count == stored.count }, "\(Self.officeSamples(office).count)")
    #expect(Self.sortedByTime(Self.officeSamples(office).values) == Self.sortedByTime(stored))
    // A part sent again never counts as delivered: once the broker has acknowledged all of
    // it, the record is as it was, short of the shift's rows, and retention keeps the shift.
    #expect(Self.drained(rig.database))
    let rows = stored.count
    #expect(try DaemonDatabaseProbe.query(rig.database, acknowledged) == acknowledgedBefore)
    #expect((Int(acknowledgedBefore.first ?? "") ?? rows) < rows, "\(acknowledgedBefore) of \(rows)")

    // 2. The whole shift, from dashpilotctl on the box: a new message for every part of it
    // (after the reply to the first resend, which took the sequence after its messages).
    let resentFrom = (result["last_sequence"] as? Int ?? 0) + 2
    let messages = (rows + 999) / 1000 + stops.count + 1
    let whole = try daemon.control(["shift", "resend", "1"])
    #expect(whole.status == 0, "\(whole.standardError)")
    #expect(
      whole.standardOutput
        == "Shift #1: \(rows) samples, 2 stops and the shift message queued again, in \(messages) messages "
        + "(sequences \(resentFrom)-\(resentFrom + messages - 1)).\n")
    #expect(Self.drained(rig.database))
    #expect(
      Self.waitFor(office) {
        Self.received($0, "shift").contains { $0["sequence"] as? Int == resentFrom + messages - 1 }
      })
    // Delivered whole: counted afresh from the resend's first message.
    #expect(
      try DaemonDatabaseProbe.query(
        rig.database,
        "SELECT sample_rows || '|' || samples_acknowledged || '|' || shift_acknowledged || '|' || counted_from FROM uplink_shift_delivery WHERE shift_id = 1"
      ) == ["\(rows)|\(rows)|1|\(resentFrom)"])
    #expect(daemon.log.contains("uplink: shift 1: \(rows) samples, 2 stops and the shift message queued again"))

    // What a resent message looks like: a new key and sequence, the content as it was.
    let resentSamples = Self.received(office, "samples").filter { ($0["sequence"] as? Int ?? 0) >= resentFrom }
    #expect(
      resentSamples.map { $0["key"] as? String } == (0..<((rows + 999) / 1000)).map { "van-7/1/\(resentFrom + $0)" })
    let original = try #require(
      Self.received(office, "samples").first { message in
        (message["sequence"] as? Int ?? .max) <= lastSequence
          && (message["samples"] as? [[String: Any]])?.contains { $0["time"] as? String == firstTime } == true
      })
    func sample(_ message: [String: Any]?) -> NSDictionary? {
      ((message?["samples"] as? [[String: Any]])?.first { $0["time"] as? String == firstTime }).map(NSDictionary.init)
    }
    let again = resentSamples.first { sample($0) != nil }
    #expect(sample(original) != nil && sample(original) == sample(again))
    // The stops as shift show lists them; the shift message with the figure the shift ended with.
    let resentStops = Self.received(office, "stop").filter { ($0["sequence"] as? Int ?? 0) >= resentFrom }
    #expect(
      resentStops.compactMap { ($0["stop"] as? [String: Any]).map(NSDictionary.init) } == stops.map(NSDictionary.init))
    let resentShift = try #require(Self.received(office, "shift").last)
    #expect(resentShift["summary"] as? String == ended["summary"] as? String)
    #expect(
      (resentShift["distance"] as? [String: Any]).map(NSDictionary.init)
        == (ended["distance"] as? [String: Any]).map(NSDictionary.init))
    #expect(Self.sortedByTime(Self.officeSamples(office).values) == Self.sortedByTime(stored))

    // A shift the box does not have.
    let missing = try daemon.control(["shift", "resend", "9"])
    #expect(missing.status == 1)
    #expect(missing.standardError == "dashpilotctl: dashpilotd refused: shift.resend: no shift with id 9 (not_found)\n")
  }

  /// Whether the outbox empties within 60 s: every message queued has been acknowledged by
  /// the broker, and the drain's transaction that counted it has committed (read from the
  /// file, not from status, whose uplink figures are those of the last tick).
  static func drained(_ database: String) -> Bool {
    let deadline = Date(timeIntervalSinceNow: 60)
    while (try? DaemonDatabaseProbe.query(database, "SELECT count(*) FROM uplink_outbox")) != ["0"] {
      guard Date() < deadline else { return false }
      usleep(100_000)
    }
    return true
  }

  /// Polls what the office received until `condition` holds (30 s at most).
  static func waitFor(_ office: MosquittoSubscriber, _ condition: (MosquittoSubscriber) -> Bool) -> Bool {
    let deadline = Date(timeIntervalSinceNow: 30)
    while !condition(office) {
      guard Date() < deadline else { return false }
      usleep(100_000)
    }
    return true
  }
}
