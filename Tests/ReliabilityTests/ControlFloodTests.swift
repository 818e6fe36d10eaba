import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The real dashpilotd under a flood of 300 control clients at once on its unix socket:
/// half of them well-formed, the other half idle, sending garbage, or sending lines past
/// the limit. Every well-formed request must get its own correct answer, throughout.
@Suite(.serialized) struct ControlFloodTests {
  static let wellFormed = 150
  static let idle = 50
  static let garbage = 50
  static let overlongPerRound = 50
  static let rounds = 5
  static let requestsPerRound = 3

  static let garbageLines = [
    "garbage", #"{"v":1}"#, "\u{7F}\u{1B}[2J", #"{"v":1,"id":5,"cmd":"reboot"}"#, "[[[[[[[[",
    #"{"v":9,"id":1,"cmd":"status"}"#,
  ]

  @Test func wellFormedClientsAreAnsweredThroughAFloodOfBadOnes() throws {
    let daemon = try DaemonUnderTest(config: "[Control]\nMaximumClients=1000\nIdleTimeout=120\n")
    defer { daemon.stop() }
    try daemon.waitUntilReady()

    let good = try (0..<Self.wellFormed).map { _ in try RawSocketClient(path: daemon.socketPath) }
    let silent = try (0..<Self.idle).map { _ in try RawSocketClient(path: daemon.socketPath) }
    let noisy = try (0..<Self.garbage).map { _ in try RawSocketClient(path: daemon.socketPath) }
    var tally = FloodTally()
    for round in 0..<Self.rounds {
      tally.add(try Self.floodRound(round, daemon: daemon, good: good, noisy: noisy))
    }
    let answered = tally.answered
    let garbageRefused = tally.garbageRefused
    let overlongRefused = tally.overlongRefused
    #expect(answered == Self.wellFormed * Self.rounds * Self.requestsPerRound)
    #expect(garbageRefused == Self.garbage * Self.rounds * Self.garbageLines.count)
    #expect(overlongRefused == Self.overlongPerRound * Self.rounds)

    // The idle clients were never dropped, and are answered now that they speak.
    var idleAnswered = 0
    for (index, client) in silent.enumerated() {
      if client.ask(#"{"v":1,"id":\#(index + 1),"cmd":"status"}"#)?["id"] as? Int == index + 1 { idleAnswered += 1 }
    }
    #expect(idleAnswered == Self.idle)
    // Alive afterwards, and it stops cleanly.
    #expect(daemon.process.isRunning)
    #expect(try daemon.control(["status"]).status == 0)
    #expect(daemon.stop() == 0)
  }
}

extension ControlFloodTests {
  /// One round of the flood: 50 new clients with over-long lines, every good client sends
  /// three `status` requests and every noisy one its garbage, all before anything is read,
  /// and a real dashpilotctl asks in the middle of it. Then every answer is read and judged:
  /// a good client's must carry its own id and the daemon's pid.
  static func floodRound(
    _ round: Int, daemon: DaemonUnderTest, good: [RawSocketClient], noisy: [RawSocketClient]
  ) throws -> FloodTally {
    let pid = Int(daemon.pid)
    var tally = FloodTally()
    // 50 more clients each round, each sending a line past the 64 KiB limit.
    let overlong = try (0..<Self.overlongPerRound).map { _ in try RawSocketClient(path: daemon.socketPath) }
    // Everything is sent before anything is read, so the daemon has all of it at once.
    let work = FloodWork(good: good, noisy: noisy, overlong: overlong, round: round)
    DispatchQueue.concurrentPerform(iterations: 3) { part in work.send(part) }
    let control = try daemon.control(["status", "--json"])
    #expect(control.status == 0, "dashpilotctl status failed in round \(round): \(control.standardError)")
    for (index, client) in good.enumerated() {
      for request in 0..<Self.requestsPerRound {
        let id = FloodWork.id(client: index, round: round, request: request)
        let answer = client.readLine(timeout: 30).flatMap {
          (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
        }
        let result = answer?["result"] as? [String: Any]
        let daemonSection = result?["daemon"] as? [String: Any]
        let correct =
          answer?["id"] as? Int == id && answer?["ok"] as? Bool == true
          && daemonSection?["pid"] as? Int == pid && daemonSection?["state"] as? String == "running"
        #expect(correct, "client \(index) round \(round) request \(request): \(String(describing: answer))")
        if correct { tally.answered += 1 }
      }
    }
    for client in noisy {
      for _ in Self.garbageLines {
        let line = client.readLine(timeout: 30) ?? ""
        if line.contains(#""ok":false"#) && line.contains(#""code":""#) { tally.garbageRefused += 1 }
      }
    }
    for client in overlong {
      let line = client.readLine(timeout: 30) ?? ""
      if line.contains(#""code":"line_too_long""#) && client.isClosedByPeer() { tally.overlongRefused += 1 }
    }
    return tally
  }

  /// With the shipped limit of 64 clients, 300 at once: the first 64 are served (half of
  /// them sending garbage), every one past the limit is told `busy` and closed, and the
  /// served well-formed ones are answered throughout.
  @Test func pastTheClientLimitTheRestAreToldBusyAndTheServedAreAnswered() throws {
    let daemon = try DaemonUnderTest(config: "[Control]\nIdleTimeout=120\n")
    defer { daemon.stop() }
    try daemon.waitUntilReady()
    let limit = 64
    let served = try (0..<limit).map { _ in try RawSocketClient(path: daemon.socketPath) }
    // Each served client has been answered once before the crowd arrives, so it is counted.
    for (index, client) in served.enumerated() {
      #expect(client.ask(#"{"v":1,"id":\#(index + 1),"cmd":"status"}"#)?["id"] as? Int == index + 1)
    }
    let crowd = try (0..<(300 - limit)).map { _ in try RawSocketClient(path: daemon.socketPath) }
    var busy = 0
    for client in crowd {
      let line = client.readLine(timeout: 30) ?? ""
      if line.contains(#""code":"busy""#) && client.isClosedByPeer() { busy += 1 }
    }
    #expect(busy == 300 - limit)
    var answered = 0
    var refused = 0
    for round in 0..<3 {
      for (index, client) in served.enumerated() where index % 2 == 1 { client.send("garbage\n{\"v\":1}\n") }
      for (index, client) in served.enumerated() where index % 2 == 0 {
        let id = 1_000 * (round + 1) + index
        if client.ask(#"{"v":1,"id":\#(id),"cmd":"status"}"#)?["id"] as? Int == id { answered += 1 }
      }
      for (index, client) in served.enumerated() where index % 2 == 1 {
        for _ in 0..<2 where client.readLine(timeout: 30)?.contains(#""ok":false"#) == true { refused += 1 }
      }
    }
    #expect(answered == limit / 2 * 3)
    #expect(refused == limit / 2 * 3 * 2)
    #expect(daemon.process.isRunning)
  }
}

/// What a flood round counted.
struct FloodTally {
  var answered = 0
  var garbageRefused = 0
  var overlongRefused = 0

  mutating func add(_ other: FloodTally) {
    answered += other.answered
    garbageRefused += other.garbageRefused
    overlongRefused += other.overlongRefused
  }
}

/// One round's sending, split into parts that run on separate threads at once.
final class FloodWork: @unchecked Sendable {
  let good: [RawSocketClient]
  let noisy: [RawSocketClient]
  let overlong: [RawSocketClient]
  let round: Int

  init(good: [RawSocketClient], noisy: [RawSocketClient], overlong: [RawSocketClient], round: Int) {
    self.good = good
    self.noisy = noisy
    self.overlong = overlong
    self.round = round
  }

  static func id(client: Int, round: Int, request: Int) -> Int { 1_000_000 * (round + 1) + client * 10 + request }

  func send(_ part: Int) {
    switch part {
    case 0:
      for (index, client) in good.enumerated() {
        let lines = (0..<ControlFloodTests.requestsPerRound).map {
          #"{"v":1,"id":\#(Self.id(client: index, round: round, request: $0)),"cmd":"status"}"# + "\n"
        }
        client.send(lines.joined())
      }
    case 1:
      for client in noisy { client.send(ControlFloodTests.garbageLines.map { $0 + "\n" }.joined()) }
    default:
      let line = [UInt8](repeating: UInt8(ascii: "x"), count: 70_000)
      for client in overlong { client.send(line) }
    }
  }
}
