import Foundation
import Office
import OfficeLoad
import TestSupport
import Testing

/// The real dashpilot-officed between a real mosquitto and a real PostgreSQL/PostGIS: every
/// message stored once whichever worker takes it, redeliveries changing nothing, bad input
/// kept in `rejected` and acknowledged (never sent again), and the log saying so at most
/// once a second.
@Suite(.requiresPostGIS, .requiresMosquitto)
struct OfficeServiceTests {
  @Test func twoWorkersStoreEveryMessageOnce() throws {
    let rig = try OfficeRig("service_once")
    try rig.start(workers: 2)
    let publisher = try rig.publisher()
    var fleet = SimulatedFleet(count: 20, start: BoxPayloads.t0)
    var sent: [(String, [UInt8])] = []
    for tick in 0..<30 {
      for vehicle in 0..<20 {
        let message = fleet.message(vehicle: vehicle, tick: tick, queuedAt: Date())
        sent.append(message)
        try publisher.publish(topic: message.topic, payload: message.payload)
      }
    }
    // At least once: a box that lost its connection publishes some again, byte for byte.
    for message in sent.enumerated().filter({ $0.offset % 10 == 3 }).map(\.element) {
      try publisher.publish(topic: message.0, payload: message.1)
    }
    #expect(publisher.waitUntilAcknowledged(timeout: 30))
    try rig.waitForLedger(600)
    try rig.waitFor("the 60 duplicates acknowledged", timeout: 20) {
      try rig.database.psql("SELECT sum(messages) FROM workers") == "600"
    }
    #expect(try rig.database.count("samples") == 600)
    #expect(
      try rig.database.psql("SELECT count(*) FROM (SELECT DISTINCT vehicle, shift, time FROM samples) s") == "600")
    #expect(try rig.database.psql("SELECT count(DISTINCT worker) FROM ledger") == "2")
    #expect(try rig.database.count("vehicles") == 20)
    #expect(try rig.database.count("holes") == 0)
    let status = try ProcessRunner.run(
      DaemonBinaries.url("dashpilot-officed"), ["status", "--database", rig.database.conninfo], timeout: 30)
    #expect(status.status == 0)
    #expect(status.standardOutput.contains("stored: 20 vehicles, 0 shifts"))
    #expect(status.standardOutput.contains("holes: none (every vehicle's sequences are whole)"))
    #expect(status.standardOutput.contains("rejected: none"))
    #expect(status.standardOutput.split(separator: "\n").filter { $0.contains(", connected, ") }.count == 2)
  }

  /// Each kind of bad input the issue names, and a schema on another kind's topic: stored
  /// in `rejected` with its reason, acknowledged (a restart of the service gets none of them
  /// again), counted, and logged at most once a second.
  @Test func badInputIsKeptAcknowledgedAndLoggedAtMostOnceASecond() throws {
    let rig = try OfficeRig("service_rejected", config: ["MaximumPayload=2048"])
    try rig.start(workers: 1)
    let publisher = try rig.publisher()
    let van = BoxPayloads("van-7")
    let good = van.samples(BoxPayloads.route(count: 2), shift: 42, sequence: 17)
    let goodText = String(decoding: good.1, as: UTF8.self)
    let bad: [(String, String)] = [
      ("dashpilot/van-7/samples", "this is not JSON"),
      ("dashpilot/van-7/samples", goodText.replacing("dashpilot.samples/1", with: "dashpilot.samples/9")),
      ("dashpilot/van-7/samples", goodText.replacing("\"key\":\"van-7/42/17\"", with: "\"key\":\"van-7/42/18\"")),
      ("dashpilot/van-9/samples", goodText),
      ("dashpilot/van-7/samples", String(repeating: " ", count: 3000) + goodText),
      ("dashpilot/van-7/shift", goodText),
    ]
    for (topic, payload) in bad { try publisher.publish(topic: topic, payload: Array(payload.utf8)) }
    #expect(publisher.waitUntilAcknowledged(timeout: 20))
    try rig.waitFor("6 rejected", timeout: 20) { try rig.database.count("rejected") == 6 }
    #expect(
      try rig.database.psql("SELECT vehicle || ' ' || code || ' ' || reason FROM rejected ORDER BY code, vehicle")
        == """
        van-7 key_mismatch key "van-7/42/18" is not "van-7/42/17", the message's vehicle/shift/sequence
        van-7 not_json the payload is not JSON
        van-7 too_large the payload is \(3000 + good.1.count) bytes, over the bound of 2048 (MaximumPayload=)
        van-7 unknown_schema the schema "dashpilot.samples/9" is none the office knows
        van-9 vehicle_mismatch the vehicle "van-7" wrote on dashpilot/van-9/samples, the topic of "van-9"
        van-7 wrong_topic a dashpilot.samples/1 message on dashpilot/van-7/shift, where dashpilot.shift/1 belongs
        """)
    #expect(
      try rig.database.psql("SELECT bytes, length(payload) FROM rejected WHERE code = 'too_large'")
        == "\(3000 + good.1.count)|\(3000 + good.1.count)")
    #expect(try rig.database.count("samples") == 0)

    // A burst of 300 more: every one kept, the log saying so in a line a second at most.
    let burstStart = Date()
    for index in 0..<300 {
      try publisher.publish(topic: "dashpilot/van-8/events", payload: Array("junk \(index)".utf8))
    }
    #expect(publisher.waitUntilAcknowledged(timeout: 20))
    try rig.waitFor("306 rejected", timeout: 30) { try rig.database.count("rejected") == 306 }
    // The refusals of the last second are said with the next one, or at the next idle beat.
    try rig.waitFor("every refusal logged", timeout: 10) { Self.refusalLines(rig.log).total == 306 }
    let seconds = Date().timeIntervalSince(burstStart) + 1
    let lines = Self.refusalLines(rig.log).lines
    #expect(lines >= 2)
    #expect(lines <= Int(seconds.rounded(.up)) + 2, "\(lines) lines in \(seconds) s")
    #expect(try rig.database.psql("SELECT rejected FROM workers WHERE worker = 1") == "306")

    // Acknowledged: the service started again is sent none of them again.
    rig.stop()
    try rig.start(workers: 1)
    Thread.sleep(forTimeInterval: 1.5)
    #expect(try rig.database.count("rejected") == 306)
    #expect(try rig.database.psql("SELECT rejected FROM workers WHERE worker = 1") == "306")
  }

  /// The log's "rejected N messages" lines: how many, and the Ns summed.
  static func refusalLines(_ log: String) -> (lines: Int, total: Int) {
    let lines = log.split(separator: "\n").filter { $0.contains("warning: rejected ") }
    var total = 0
    for line in lines {
      let words = line.split(separator: " ")
      if let index = words.firstIndex(of: "rejected"), index + 1 < words.count, let count = Int(words[index + 1]) {
        total += count
      }
    }
    return (lines.count, total)
  }
}
