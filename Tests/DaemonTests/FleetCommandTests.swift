import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Fleet commands end to end, all real: `dashpilotd` taking commands on its MQTT command
/// topic from a dispatcher made of mosquitto's own clients, through a real mosquitto on
/// loopback, with its ledger in the real SQLite file.
@Suite("fleet commands over MQTT, against a real mosquitto", .serialized, .requiresMosquitto)
struct FleetCommandTests {
  typealias Rig = FleetRig

  static func shiftRows(_ database: String) throws -> [String] {
    try DaemonDatabaseProbe.query(database, "SELECT id || ' ' || coalesce(ended_at_ms, 'open') FROM shifts ORDER BY id")
  }

  @Test("a command id runs once however often it is sent, and is answered with the stored reply, after a restart too")
  func anIDRunsOnce() throws {
    let rig = try Rig("fleet-once")
    defer { rig.stop() }
    var daemon = try rig.startDaemon()
    defer { daemon.stop() }
    let start = Rig.command("office-start-1", "shift.start")
    rig.send(start)
    let first = try #require(rig.dispatcher.reply(to: "office-start-1"), "\(daemon.log)")
    #expect(first.ok == true)
    #expect(first.result?["id"] as? Int == 1)
    #expect(first.result?["ended_at"] is NSNull)
    // The sender retries, and then reuses the id for another command: neither runs.
    rig.send(start)
    rig.send(Rig.command("office-start-1", "shift.end"))
    try rig.roundTrip()
    #expect(rig.dispatcher.replies(to: "office-start-1").map(\.payload) == Array(repeating: first.payload, count: 3))
    #expect(try Self.shiftRows(rig.database) == ["1 open"])
    #expect(daemon.log.components(separatedBy: #"uplink: command "office-start-1" was answered before"#).count == 3)

    // The ledger is in the database: a restarted daemon answers the same.
    #expect(daemon.stop() == 0)
    daemon = try rig.startDaemon()
    rig.send(start)
    try rig.roundTrip()
    #expect(rig.dispatcher.replies(to: "office-start-1").map(\.payload) == Array(repeating: first.payload, count: 4))
    #expect(try Self.shiftRows(rig.database) == ["1 open"])
    // Status shows what the uplink's queue counted at the last tick.
    let counted = daemon.waitForStatus(timeout: 10) { $0.object("uplink.commands")?["received"] as? Int == 2 }
    let commands = try #require(counted?.object("uplink.commands"), "\(daemon.log)")
    #expect(commands["accepting"] as? Bool == true)
    #expect(commands["topic"] as? String == "dashpilot/van-7/command")
    #expect(
      commands["allowed"] as? [String] == [
        "job.assign", "job.assign_all", "job.cancel", "job.list", "navigate", "route.clear", "route.load", "shift.end",
        "shift.resend", "shift.start", "status",
      ])
    #expect(commands["received"] as? Int == 2)
    #expect(commands["refused"] as? [String: Int] == [:])
  }

  @Test("every bad input gets its exact error code, in a reply when an id can be read and in the journal otherwise")
  func badInputs() throws {
    let rig = try Rig("fleet-bad")
    defer { rig.stop() }
    let receiver = try GPSDPseudoReceiver(
      nmea: try DaemonSteadyDrive.write(fixes: 3_000, in: rig.directory), secondsPerLine: 0.02)
    defer { receiver.stop() }
    try receiver.startGPSD()
    receiver.startFeeding()
    let daemon = try rig.startDaemon(gpsd: "127.0.0.1:\(receiver.port)")
    defer { daemon.stop() }
    // A fix, so that an expiry can be judged (by the receiver's time, if the box's clock
    // is not synchronised).
    let fixed = daemon.waitForStatus(timeout: 30) { $0.object("gpsd")?["last_fix_at"] is String }
    try #require(fixed != nil, "no fix: \(daemon.log)")

    let cases: [(id: String, line: String, code: String, message: String)] = [
      (
        "b-version", #"{"v":2,"id":"b-version","cmd":"status"}"#, "unsupported_version",
        "protocol version 2 is not supported; this daemon speaks version 1"
      ),
      ("b-unknown", Rig.command("b-unknown", "reboot"), "unknown_command", #"unknown command "reboot""#),
      (
        "b-args", Rig.command("b-args", "navigate", args: #"{"destination":{"lat":95,"lon":0}}"#), "bad_arguments",
        "navigate: destination is not a position on Earth (latitude within ±90, longitude within ±180)"
      ),
      (
        "b-field", #"{"v":1,"id":"b-field","cmd":"status","reply_to":"x"}"#, "bad_request",
        #"unknown request field "reply_to""#
      ),
      (
        "b-allowed", Rig.command("b-allowed", "shifts"), "not_allowed",
        "shifts is not taken over MQTT on this box ([Uplink] AllowedCommands=)"
      ),
      (
        "b-allowed-2", Rig.command("b-allowed-2", "shifts"), "not_allowed",
        "shifts is not taken over MQTT on this box ([Uplink] AllowedCommands=)"
      ),
      (
        "b-expired", Rig.command("b-expired", "shift.start", expiresAt: "2020-01-01T00:00:00Z"), "expired",
        "shift.start expired at 2020-01-01T00:00:00.000Z"
      ),
    ]
    for item in cases { rig.send(item.line) }
    rig.send(#"{"v":1,"id":7,"cmd":"status"}"#)
    rig.send("{not json")
    let oversized = rig.directory.appendingPathComponent("oversized.json")
    let padding = String(repeating: " ", count: 1_048_577 - Rig.command("b-large", "status").utf8.count)
    try (Rig.command("b-large", "status") + padding).write(to: oversized, atomically: true, encoding: .utf8)
    try rig.send(contentsOf: oversized)
    try rig.roundTrip()
    for item in cases {
      let replies = rig.dispatcher.replies(to: item.id)
      #expect(replies.count == 1, "\(item.id): \(replies.map(\.payload))")
      #expect(replies.first?.ok == false)
      #expect(replies.first?.errorCode == item.code, "\(item.id)")
      #expect(
        replies.first?.errorMessage?.hasPrefix(item.message) == true, "\(item.id): \(replies.first?.payload ?? "")")
    }
    let numeric = rig.dispatcher.received.filter { $0.topic.hasSuffix("/reply") && $0.json["id"] as? Int == 7 }
    #expect(
      numeric.map(\.payload) == [
        #"{"error":{"code":"bad_request","message":"a fleet command's \"id\" is a string of 1 to 128 bytes that the sender never reuses"},"id":7,"ok":false,"v":1}"#
      ])
    #expect(rig.dispatcher.replies(to: "b-large").isEmpty)
    let log = daemon.log
    #expect(
      log.contains(
        "uplink: refused a message of 9 bytes on dashpilot/van-7/command without a reply (no id could be read): "
          + "not_json: the request is not valid JSON"))
    #expect(
      log.contains(
        "uplink: refused a message of 1048577 bytes on dashpilot/van-7/command without a reply (no id could be read): "
          + "too_large: the command is 1048577 bytes; the limit is 1048576"))
    // not_allowed is logged once for the command name, however often it is sent.
    #expect(log.components(separatedBy: "uplink: refused shifts over MQTT").count == 2)
    #expect(try Self.shiftRows(rig.database) == [])

    // A flood past the burst of 200: answered busy at once, never queued. (What was sent
    // before counts against it too, and the bucket refills ten a second meanwhile.)
    let flood = (0..<225).map { "f\($0)" }
    for id in flood { rig.dispatcher.send(Rig.command(id, "status")) }
    rig.dispatcher.wait(timeout: 30) { received in
      flood.allSatisfy { id in received.contains { $0.topic.hasSuffix("/reply") && $0.json["id"] as? String == id } }
    }
    let answers = flood.map { rig.dispatcher.replies(to: $0) }
    #expect(answers.map(\.count) == Array(repeating: 1, count: 225))
    let busy = answers.filter { $0.first?.errorCode == "busy" }.count
    let ok = answers.filter { $0.first?.ok == true }.count
    #expect(busy >= 15 && busy + ok == 225, "busy \(busy), ok \(ok)")

    // Capture went on; status counts every refusal by its code.
    #expect(daemon.process.isRunning)
    let expected = cases.count + 3 + 1 + 225
    let counted = daemon.waitForStatus(timeout: 10) { $0.object("uplink.commands")?["received"] as? Int == expected }
    let status = try #require(counted, "\(daemon.log)")
    #expect(status.object("gpsd")?["connected"] as? Bool == true)
    let commands = try #require(status.object("uplink.commands"))
    #expect(
      commands["refused"] as? [String: Int] == [
        "unsupported_version": 1, "unknown_command": 1, "bad_arguments": 1, "bad_request": 2, "not_allowed": 2,
        "expired": 1, "not_json": 1, "too_large": 1, "busy": busy,
      ])
    #expect(commands["received"] as? Int == expected)
  }

  @Test("AcceptCommands=no: the box never subscribes, so a command is never delivered, answered or run")
  func acceptCommandsNoIgnoresCommands() throws {
    let rig = try Rig("fleet-off")
    defer { rig.stop() }
    let daemon = try rig.startDaemon(accept: false)
    defer { daemon.stop() }
    try rig.dispatcher.sendAndWait(Rig.command("ignored-1", "shift.start"))
    // The broker has routed it (mosquitto_pub returned on its PUBACK), and a probe published
    // after it has come back: whatever the broker was going to send the box, it has sent.
    try rig.dispatcher.probe()
    #expect(rig.subscriptions == 0)
    let toTheBox = rig.broker.log.split(separator: "\n").filter {
      $0.contains("Sending PUBLISH to dashpilot-van-7") && $0.contains("'dashpilot/van-7/command'")
    }
    #expect(toTheBox.isEmpty)
    let received = rig.broker.log.split(separator: "\n").filter {
      $0.contains("Received PUBLISH from") && $0.contains("'dashpilot/van-7/command'")
    }
    #expect(received.count == 1)
    #expect(rig.dispatcher.received.filter { $0.topic.hasSuffix("/reply") }.isEmpty)
    let status = try daemon.controlJSON(["status"])
    #expect(status["shift"] is NSNull)
    let commands = try #require(status.object("uplink")?["commands"] as? [String: Any])
    #expect(commands["accepting"] as? Bool == false)
    #expect(commands["summary"] as? String == "off (AcceptCommands=no)")
    let line = try daemon.control(["status"]).standardOutput.split(separator: "\n").first { $0.hasPrefix("commands") }
    #expect(line == "commands   off (AcceptCommands=no)")
  }
}
