import CSQLite
import Foundation
import TestSupport
import Testing

/// The fleet uplink in the real `dashpilotd`, against a real mosquitto and a real consumer
/// (`mosquitto_sub`): what the store commits reaches the broker complete and in order, a
/// refused password shows in `status` without touching capture, and without `[Uplink]`
/// nothing changes.
@Suite("uplink in the daemon, against a real mosquitto", .serialized, .requiresMosquitto)
struct UplinkDaemonTests {
  static let vehicle = "van-7"

  /// Imports a track of `count` points 100 m apart along a meridian, 10 s apart, starting
  /// at `start`; returns the new shift's id and figure's summary.
  static func importTrack(
    _ daemon: DaemonUnderTest, id: Int, count: Int, start: Int
  ) throws -> (id: Int, summary: String) {
    let points = (0..<count).map {
      #"{"lat":\#(51.5 + Double($0) * 0.000899322),"lon":-0.12,"time":\#(start + $0 * 10),"accuracy":5}"#
    }
    let client = try RawSocketClient(path: daemon.socketPath)
    let answer = try #require(
      client.ask(
        #"{"v":1,"id":\#(id),"cmd":"import","args":{"name":"logger","points":[\#(points.joined(separator: ","))]}}"#))
    let result = try #require(answer["result"] as? [String: Any], "import failed: \(answer)")
    return (try #require(result["id"] as? Int), try #require(result["summary"] as? String))
  }

  static func payload(_ text: String) -> [String: Any] {
    (try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]) ?? [:]
  }

  /// A position as the store keeps it: milliseconds and 1e-7 degrees.
  static func key(milliseconds: Int64, latitudeE7: Int64, longitudeE7: Int64) -> String {
    "\(milliseconds) \(latitudeE7) \(longitudeE7)"
  }

  /// A published position, in the store's units.
  static func key(published sample: [String: Any]) -> String? {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    guard let time = sample["time"] as? String, let date = formatter.date(from: time),
      let lat = sample["lat"] as? Double, let lon = sample["lon"] as? Double
    else { return nil }
    return key(
      milliseconds: Int64((date.timeIntervalSince1970 * 1000).rounded()), latitudeE7: Int64((lat * 1e7).rounded()),
      longitudeE7: Int64((lon * 1e7).rounded()))
  }

  /// Every position the store holds, by shift, read straight from the file (read-only).
  static func storedPositions(_ path: String) throws -> [Int: [String]] {
    var handle: OpaquePointer?
    guard sqlite3_open_v2(path, &handle, SQLITE_OPEN_READONLY, nil) == SQLITE_OK, let handle else {
      throw DaemonTestFailure("cannot open \(path)")
    }
    defer { sqlite3_close_v2(handle) }
    var statement: OpaquePointer?
    let sql = "SELECT shift_id, fix_time_ms, latitude_e7, longitude_e7 FROM samples ORDER BY id"
    guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK else {
      throw DaemonTestFailure(String(cString: sqlite3_errmsg(handle)))
    }
    defer { sqlite3_finalize(statement) }
    var result: [Int: [String]] = [:]
    while sqlite3_step(statement) == SQLITE_ROW {
      result[Int(sqlite3_column_int64(statement, 0)), default: []].append(
        key(
          milliseconds: sqlite3_column_int64(statement, 1), latitudeE7: sqlite3_column_int64(statement, 2),
          longitudeE7: sqlite3_column_int64(statement, 3)))
    }
    return result
  }

  /// Whether the file has the outbox's table.
  static func hasOutbox(_ path: String) throws -> Bool {
    var handle: OpaquePointer?
    guard sqlite3_open_v2(path, &handle, SQLITE_OPEN_READONLY, nil) == SQLITE_OK, let handle else {
      throw DaemonTestFailure("cannot open \(path)")
    }
    defer { sqlite3_close_v2(handle) }
    var statement: OpaquePointer?
    guard
      sqlite3_prepare_v2(handle, "SELECT count(*) FROM sqlite_master WHERE name = 'uplink_outbox'", -1, &statement, nil)
        == SQLITE_OK
    else { throw DaemonTestFailure(String(cString: sqlite3_errmsg(handle))) }
    defer { sqlite3_finalize(statement) }
    guard sqlite3_step(statement) == SQLITE_ROW else { throw DaemonTestFailure("no answer from sqlite_master") }
    return sqlite3_column_int64(statement, 0) > 0
  }

  @Test("imported shifts reach the broker complete, in sequence order, equal to the store; status says connected")
  func importedShiftsArrive() throws {
    let directory = try TestPaths.temporaryDirectory("uplink-daemon")
    defer { try? FileManager.default.removeItem(at: directory) }
    let broker = try MosquittoBroker(directory: directory)
    try broker.start()
    defer { broker.stop() }
    let consumer = try MosquittoSubscriber(
      port: broker.port, topic: "dashpilot/\(Self.vehicle)/#", directory: directory)
    defer { consumer.stop() }
    try consumer.waitUntilSubscribed(probeTopic: "dashpilot/\(Self.vehicle)/probe")

    let daemon = try DaemonUnderTest(
      config: "[Uplink]\nHost=127.0.0.1\nPort=\(broker.port)\nVehicleID=\(Self.vehicle)\nLiveInterval=1\n")
    defer { daemon.stop() }
    try daemon.waitUntilReady()
    let counts = [20, 35, 50]
    var imported: [(id: Int, summary: String)] = []
    for (index, count) in counts.enumerated() {
      imported.append(try Self.importTrack(daemon, id: index + 1, count: count, start: 1_700_000_000 + index * 10_000))
    }
    let shiftIDs = imported.map(\.id)
    #expect(shiftIDs == [1, 2, 3])

    // Drained: connected, nothing waiting, and every message with the consumer.
    let drained = daemon.waitForStatus(timeout: 20) { status in
      status.object("uplink")?["connected"] as? Bool == true && status.object("uplink")?["outbox_depth"] as? Int == 0
    }
    let uplink = try #require(drained?.object("uplink"), "never drained: \(daemon.log)")
    #expect(uplink["broker"] as? String == "127.0.0.1:\(broker.port)")
    #expect(uplink["last_error"] is NSNull)
    #expect(uplink["oldest_unsent_age_seconds"] is NSNull)
    let text = try daemon.control(["status"])
    #expect(text.standardOutput.contains("uplink     connected to 127.0.0.1:\(broker.port) · outbox empty\n"))

    let deadline = Date() + 10
    var published: [(topic: String, payload: [String: Any])] = []
    repeat {
      published = consumer.messages.filter { $0.topic.hasSuffix("/samples") || $0.topic.hasSuffix("/shift") }
        .map { ($0.topic, Self.payload($0.payload)) }
      if published.count >= 6 { break }
      usleep(100_000)
    } while Date() < deadline
    // Each import is one transaction: its samples, then its shift with the figure.
    let topics = published.map { String($0.topic.split(separator: "/").last ?? "") }
    #expect(topics == ["samples", "shift", "samples", "shift", "samples", "shift"])
    let sequences = published.compactMap { $0.payload["sequence"] as? Int }
    #expect(sequences == [1, 2, 3, 4, 5, 6])
    let keys = published.map { $0.payload["key"] as? String }
    #expect(keys == (0..<6).map { Optional("\(Self.vehicle)/\(shiftIDs[$0 / 2])/\($0 + 1)") })
    let shifts = published.filter { $0.topic.hasSuffix("/shift") }.map(\.payload)
    #expect(shifts.map { $0["summary"] as? String } == imported.map { Optional($0.summary) })
    #expect(
      shifts.map { ($0["distance"] as? [String: Any])?["usable_positions"] as? Int } == counts.map { Optional($0) })
    #expect(
      consumer.messages.contains {
        $0.topic == "dashpilot/\(Self.vehicle)/status" && $0.payload.contains(#""state":"online""#)
      })

    // The consumer's de-duplicated positions equal the store's, shift by shift, and arrived
    // in the store's order.
    let stored = try Self.storedPositions(daemon.databasePath)
    var received: [Int: [String]] = [:]
    for message in published where message.topic.hasSuffix("/samples") {
      let shift = try #require(message.payload["shift"] as? Int)
      for sample in message.payload["samples"] as? [[String: Any]] ?? [] {
        received[shift, default: []].append(try #require(Self.key(published: sample)))
      }
    }
    #expect(stored.mapValues(\.count) == [1: 20, 2: 35, 3: 50])
    #expect(received == stored)
    // The low-rate live status, retained, for dashboards (no shift open after imports).
    let liveDeadline = Date() + 10
    var live: [String: Any]?
    repeat {
      live = consumer.messages.first { $0.topic == "dashpilot/\(Self.vehicle)/live" }.map { Self.payload($0.payload) }
      if live != nil { break }
      usleep(100_000)
    } while Date() < liveDeadline
    #expect(live?["schema"] as? String == "dashpilot.live/1")
    #expect(live?["vehicle"] as? String == Self.vehicle)
    #expect(live?["shift"] is NSNull)
  }

  @Test("a broker that is down at start: status says so, imports queue, and all of it arrives once it is up")
  func brokerDownThenUp() throws {
    let directory = try TestPaths.temporaryDirectory("uplink-daemon")
    defer { try? FileManager.default.removeItem(at: directory) }
    let broker = try MosquittoBroker(directory: directory)
    let daemon = try DaemonUnderTest(
      config:
        "[Uplink]\nHost=127.0.0.1\nPort=\(broker.port)\nVehicleID=\(Self.vehicle)\nReconnectDelay=1\nReconnectDelayMax=1\n"
    )
    defer { daemon.stop() }
    try daemon.waitUntilReady()
    let imported = try Self.importTrack(daemon, id: 1, count: 30, start: 1_700_000_000)
    #expect(imported.id == 1)
    let down = daemon.waitForStatus(timeout: 20) { status in
      status.object("uplink")?["outbox_depth"] as? Int == 2 && status.object("uplink")?["last_error"] is String
    }
    let uplink = try #require(down?.object("uplink"), "status never showed the queue: \(daemon.log)")
    #expect(uplink["connected"] as? Bool == false)
    #expect((uplink["last_error"] as? String)?.hasPrefix("uplink: ") == true)
    #expect(down?.object("store")?["ok"] as? Bool == true)

    try broker.start()
    defer { broker.stop() }
    let consumer = try MosquittoSubscriber(
      port: broker.port, topic: "dashpilot/\(Self.vehicle)/#", directory: directory)
    defer { consumer.stop() }
    try consumer.waitUntilSubscribed(probeTopic: "dashpilot/\(Self.vehicle)/probe")
    // Queued after the consumer subscribed, so it sees this one at least.
    let second = try Self.importTrack(daemon, id: 2, count: 10, start: 1_700_100_000)
    #expect(second.id == 2)
    let drained = daemon.waitForStatus(timeout: 30) { status in
      status.object("uplink")?["connected"] as? Bool == true && status.object("uplink")?["outbox_depth"] as? Int == 0
    }
    #expect(drained?.object("uplink")?["last_error"] is NSNull, "\(daemon.log)")
    let deadline = Date() + 10
    var sequences: [Int] = []
    repeat {
      sequences = consumer.messages.filter { $0.topic.hasSuffix("/samples") || $0.topic.hasSuffix("/shift") }
        .compactMap { Self.payload($0.payload)["sequence"] as? Int }
      if sequences.contains(4) { break }
      usleep(100_000)
    } while Date() < deadline
    // The second import's two messages, after whatever of the first reached the consumer.
    #expect(Array(sequences.suffix(2)) == [3, 4])
    #expect(sequences == sequences.sorted())
  }

  @Test("a wrong password is a clear status line and log line; imports and shifts go on and queue in the outbox")
  func wrongPassword() throws {
    let directory = try TestPaths.temporaryDirectory("uplink-daemon")
    defer { try? FileManager.default.removeItem(at: directory) }
    let broker = try MosquittoBroker(directory: directory, passwords: ["van7": "right-secret"])
    try broker.start()
    defer { broker.stop() }
    let passwordFile = directory.appendingPathComponent("uplink-password").path
    try "wrong-secret\n".write(toFile: passwordFile, atomically: true, encoding: .utf8)

    let daemon = try DaemonUnderTest(
      config: """
        [Uplink]
        Host=127.0.0.1
        Port=\(broker.port)
        VehicleID=\(Self.vehicle)
        Username=van7
        PasswordFile=\(passwordFile)
        """)
    defer { daemon.stop() }
    try daemon.waitUntilReady()
    let expectedError = "uplink: 127.0.0.1:\(broker.port) refused the connection: Connection Refused: not authorised."
    let refused = daemon.waitForStatus(timeout: 20) { $0.object("uplink")?["last_error"] as? String == expectedError }
    #expect(refused != nil, "no refusal in status: \(daemon.log)")

    // Capture is untouched: the import is stored, and its two messages wait in the outbox.
    let imported = try Self.importTrack(daemon, id: 1, count: 12, start: 1_700_000_000)
    #expect(imported.id == 1)
    #expect(try daemon.controlJSON(["shift", "start"])["id"] as? Int == 2)
    #expect(try daemon.controlJSON(["shift", "end"])["id"] as? Int == 2)
    // samples + shift of the import; the empty shift's start and end events and its report.
    let waiting = daemon.waitForStatus(timeout: 10) { $0.object("uplink")?["outbox_depth"] as? Int == 5 }
    let uplink = try #require(waiting?.object("uplink"))
    #expect(uplink["connected"] as? Bool == false)
    #expect(uplink["last_error"] as? String == expectedError)
    #expect(waiting?.object("store")?["ok"] as? Bool == true)
    let text = try daemon.control(["status"]).standardOutput
    let line = try #require(text.split(separator: "\n").first { $0.hasPrefix("uplink") })
    #expect(line.hasPrefix("uplink     not connected to 127.0.0.1:\(broker.port) · outbox 5 waiting, oldest "))
    #expect(line.hasSuffix(" s · last error: \(expectedError)"))
    #expect(daemon.log.contains(expectedError))
    #expect(try Self.storedPositions(daemon.databasePath).mapValues(\.count) == [1: 12])
  }

  @Test("without [Uplink]: no uplink in status, no outbox table, no connection")
  func offWhenNotConfigured() throws {
    let daemon = try DaemonUnderTest()
    defer { daemon.stop() }
    try daemon.waitUntilReady()
    _ = try Self.importTrack(daemon, id: 1, count: 5, start: 1_700_000_000)
    let status = try daemon.controlJSON(["status"])
    #expect(status["uplink"] == nil)
    #expect(status.object("store")?["ok"] as? Bool == true)
    #expect(!(try daemon.control(["status"]).standardOutput.contains("uplink")))
    #expect(try Self.hasOutbox(daemon.databasePath) == false)
    #expect(!daemon.log.contains("uplink"))
  }
}
