import ControlProtocol
import Foundation
import PlatformSupport
import TestSupport
import Testing

@testable import Daemon

#if canImport(Glibc)
  import Glibc
#endif

/// An answer whose track goes out in parts, through the real control server on a real
/// socket: every point arrives in order, a part is made only when the client has room for
/// it, and a client that stops reading or hangs up stops the parts.
@Suite("Answers in parts")
struct PartedAnswerTests {
  /// A head of the test's own: only the track matters here.
  struct Track: PartedTrackAnswer, Equatable {
    var name: String
    var track: [[WireTrackPoint]]
    var more: Bool?
  }

  /// Three stretches, 40,000, 1 and 20,000 points: 60,001 points, 31 parts of 2,000.
  static let track: [[WireTrackPoint]] = [40_000, 1, 20_000].enumerated().map { stretch, count in
    (0..<count).map { index in
      WireTrackPoint(
        lat: 51 + Double(index) * 1e-6, lon: Double(stretch) + Double(index) * 1e-6,
        time: 1_700_000_000 + Double(stretch * 100_000 + index) / 10, accuracy: Double(index % 50) / 10)
    }
  }
  static let partCount = 31

  /// A loop with a control server whose every request is answered with `track` in parts,
  /// counting the parts made.
  final class Rig: @unchecked Sendable {
    let directory: URL
    let path: String
    let thread: SteppedLoopThread
    let keeper = ServerKeeper()
    let made = Recorder()

    init(_ name: String, idleTimeout: TimeInterval = 60) throws {
      directory = try TestPaths.temporaryDirectory(name)
      path = directory.appendingPathComponent("control.sock").path
      thread = try SteppedLoopThread(wall: 1_700_000_000, monotonic: 500)
      let (path, keeper, made) = (path, keeper, made)
      let started = thread.turn { loop in
        guard let listener = try? ListeningSocket.create(path: path, group: nil) else { return }
        let server = ControlServer(
          listener: listener, loop: loop, limits: ControlServerLimits(maximumClients: 4, idleTimeout: idleTimeout),
          policy: AccessPolicy(daemonUID: geteuid(), socketGID: getegid()), logger: LinesLogger()
        ) { _, responder in
          let parts = TrackAnswerParts(Track(name: "test", track: PartedAnswerTests.track, more: nil))
          func give(_ part: (part: EncodedResult, more: Bool)) {
            made.add("part")
            responder.succeedPart(part.part, more: part.more) { give(parts.next()) }
          }
          give(parts.next())
        }
        server.start()
        keeper.server = server
      }
      guard started, keeper.server != nil else { throw DaemonTestFailure("the control server could not start") }
    }

    /// A client that has asked for the answer (and read nothing yet).
    func asked() throws -> RawSocketClient {
      let client = try RawSocketClient(path: path)
      guard client.send(#"{"v":1,"id":7,"cmd":"export","args":{"id":1}}"# + "\n") else {
        throw DaemonTestFailure("the request could not be sent")
      }
      return client
    }

    var partsMade: Int {
      thread.turn()
      return made.all.count
    }

    var clients: Int {
      let counts = Recorder()
      thread.turn()
      thread.turn { _ in counts.add("\(self.keeper.server?.clientCount ?? -1)") }
      return Int(counts.all.last ?? "") ?? -1
    }

    func stop() {
      thread.turn { _ in self.keeper.server?.shutDown(flushFor: 0) }
      thread.stop()
      try? FileManager.default.removeItem(at: directory)
    }
  }

  /// Reads every line of the answer and joins it as a client does; nil when a line is
  /// missing or is not a part.
  static func readWhole(_ client: RawSocketClient) -> (whole: Track, lines: Int)? {
    let decoder = JSONDecoder()
    func result<T: Decodable>(_ type: T.Type) -> T? {
      guard let line = client.readLine(),
        let envelope = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
        envelope["ok"] as? Bool == true, let result = envelope["result"],
        let data = try? JSONSerialization.data(withJSONObject: result)
      else { return nil }
      return try? decoder.decode(type, from: data)
    }
    guard var whole = result(Track.self) else { return nil }
    var lines = 1
    while whole.more == true {
      guard let part = result(TrackPart.self) else { return nil }
      whole.append(part)
      lines += 1
    }
    return (whole, lines)
  }

  @Test("a long track arrives whole and in order, as 31 lines of at most 2,000 points")
  func arrivesWhole() throws {
    let rig = try Rig("parts-whole")
    defer { rig.stop() }
    let client = try rig.asked()
    let answer = try #require(Self.readWhole(client))
    #expect(answer.lines == Self.partCount)
    #expect(answer.whole == Track(name: "test", track: Self.track, more: nil))
    #expect(rig.partsMade == Self.partCount)
  }

  @Test("a part is made only once the client has taken most of those before it")
  func waitsForTheClient() throws {
    let rig = try Rig("parts-wait")
    defer { rig.stop() }
    let client = try rig.asked()
    for _ in 0..<5 { rig.thread.turn() }
    // The socket's buffers and the 256 KiB backlog hold a few 150 KB parts, not 31.
    let madeUnread = rig.partsMade
    #expect((2...8).contains(madeUnread))
    let answer = try #require(Self.readWhole(client))
    #expect(answer.whole.track == Self.track)
    #expect(rig.partsMade == Self.partCount)
  }

  @Test("a client that reads nothing of its answer for the idle timeout is closed, and no more parts are made")
  func silentReaderIsClosed() throws {
    let rig = try Rig("parts-idle", idleTimeout: 60)
    defer { rig.stop() }
    let client = try rig.asked()
    let madeUnread = rig.partsMade
    rig.thread.clocks.set(wall: 1_700_000_000, monotonic: 559.9)
    #expect(rig.clients == 1)
    rig.thread.clocks.set(wall: 1_700_000_000, monotonic: 560)
    #expect(rig.clients == 0)
    #expect(rig.partsMade == madeUnread)
    #expect(madeUnread < Self.partCount)
    // The client was connected, reading nothing, until the daemon closed it.
    #expect(client.isClosedByPeer())
  }

  @Test("a client that hangs up in the middle of its answer stops the parts")
  func hangUpStopsTheParts() throws {
    let rig = try Rig("parts-hangup")
    defer { rig.stop() }
    var client: RawSocketClient? = try rig.asked()
    #expect(client?.readLine()?.contains(#""more":true"#) == true)
    client = nil
    #expect(rig.clients == 0)
    let made = rig.partsMade
    for _ in 0..<3 { rig.thread.turn() }
    #expect(rig.partsMade == made)
    #expect(made < Self.partCount)
  }
}
