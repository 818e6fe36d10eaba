import ControlProtocol
import Foundation
import TestSupport
import Testing

@testable import Daemon

/// A route sent inline is read by `dashpilot-route-reader`, a child of the daemon: a reader
/// that cannot be started, is killed, or hangs past its time costs that one `route.load`,
/// answered `unavailable` with what happened to the reader, and the daemon goes on (status
/// answers, capture is as it was, a route sent as coordinates loads).
@Suite("route.load inline when the route reader fails")
struct InlineRouteReaderFailureTests {
  typealias Rig = GuidanceCommandTests.Rig

  static let gpx = #"<gpx version="1.1"><rte><rtept lat="1" lon="2"/><rtept lat="1.01" lon="2"/></rte></gpx>"#
  static let inlineLoad =
    #"{"v":1,"id":1,"cmd":"route.load","args":{"gpx":"\#(gpx.replacingOccurrences(of: "\"", with: "\\\""))"}}"#
  static let coordinatesLoad =
    #"{"v":1,"id":3,"cmd":"route.load","args":{"coordinates":[{"lat":1,"lon":2},{"lat":1.01,"lon":2}]}}"#

  /// An executable shell script `body` in `directory`, named `name`.
  static func script(_ body: String, named name: String = "reader", in directory: URL) throws -> URL {
    let url = directory.appendingPathComponent(name)
    try Data("#!/bin/sh\n\(body)\n".utf8).write(to: url)
    chmod(url.path, 0o755)
    return url
  }

  /// The daemon after the failed load: status answers with nothing followed, and a route
  /// sent as coordinates loads.
  static func expectItGoesOn(_ ask: (String) throws -> [String: Any]) throws {
    let status = try ask(#"{"v":1,"id":2,"cmd":"status"}"#)
    #expect((status["result"] as? [String: Any])?["guidance"] is NSNull)
    let loaded = try ask(coordinatesLoad)
    #expect((loaded["result"] as? [String: Any])?["points"] as? Int == 2, "\(loaded)")
  }

  @Test(
    "a reader that cannot start, is killed or hangs is named in an unavailable answer, and guidance goes on",
    arguments: [
      ("missing", "could not be started: No such file or directory"),
      ("killed", "was killed by signal 9"),
      ("hangs", "was still reading after 0.5 s and was stopped"),
    ])
  func readerFails(how: String, words: String) throws {
    let directory = try TestPaths.temporaryDirectory("dashpilot-reader")
    defer { try? FileManager.default.removeItem(at: directory) }
    let program: String
    switch how {
    case "missing": program = directory.appendingPathComponent("dashpilot-route-reader").path
    case "killed": program = try Self.script("kill -KILL $$", in: directory).path
    default: program = try Self.script("exec sleep 30", in: directory).path
    }
    let rig = try Rig()
    rig.guidance.routeReader = InlineRouteReader(program: program, timeLimit: 0.5)
    defer { rig.daemon.stop() }
    #expect(rig.daemon.waitUntilReady())
    let answer = try rig.ask(Self.inlineLoad)
    #expect(answer.errorCode == "unavailable")
    #expect(answer.errorMessage == "route.load: the route reader \(program) \(words); the route was not loaded")
    try Self.expectItGoesOn(rig.ask)
  }

  @Test("a real dashpilotd whose reader is killed answers so, and its capture and store are as they were")
  func realDaemonGoesOn() throws {
    // A copy of dashpilotd with a reader beside it that is killed as it starts.
    let directory = try TestPaths.temporaryDirectory("dashpilot-reader-daemon")
    defer { try? FileManager.default.removeItem(at: directory) }
    let copy = directory.appendingPathComponent("dashpilotd")
    try FileManager.default.copyItem(at: try DaemonBinaries.url("dashpilotd"), to: copy)
    let reader = try Self.script("kill -KILL $$", named: "dashpilot-route-reader", in: directory)
    let daemon = try DaemonUnderTest(executable: copy)
    defer { daemon.stop() }
    try daemon.waitUntilReady(timeout: 30)
    let client = try RawSocketClient(path: daemon.socketPath)
    let ask = { (line: String) throws -> [String: Any] in try #require(client.ask(line)) }
    let before = try #require(try ask(#"{"v":1,"id":0,"cmd":"status"}"#)["result"] as? [String: Any])

    let answer = try ask(Self.inlineLoad)
    #expect(answer.errorCode == "unavailable")
    #expect(
      answer.errorMessage
        == "route.load: the route reader \(reader.path) was killed by signal 9; the route was not loaded")
    let after = try #require(try ask(#"{"v":1,"id":2,"cmd":"status"}"#)["result"] as? [String: Any])
    for section in ["capture", "gpsd", "store", "shift"] {
      #expect(after[section] as? NSObject == before[section] as? NSObject, "\(section)")
    }
    #expect((after["daemon"] as? [String: Any])?["pid"] as? Int == Int(daemon.pid))
    try Self.expectItGoesOn(ask)
  }
}
