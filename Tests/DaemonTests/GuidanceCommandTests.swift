import ControlProtocol
import DashPilotCore
import Foundation
import Guidance
import TestSupport
import Testing

@testable import Daemon

/// route.load, route.clear, navigate and status through a real daemon runtime and socket,
/// with no receiver: what the component answers before it has a position.
@Suite("Guidance commands")
struct GuidanceCommandTests {
  final class Rig {
    let daemon: InProcessDaemon
    let guidance: GuidanceComponent

    init(configure: (inout DaemonConfiguration) -> Void = { _ in }) throws {
      var configuration = DaemonConfiguration()
      // Nothing listens on port 1: a provider call would fail, but none is made here.
      configuration.routingURL = "http://127.0.0.1:1"
      configure(&configuration)
      let guidance = GuidanceComponent(configuration: configuration)
      self.guidance = guidance
      let handOver = ComponentsForLoop(components: [guidance])
      daemon = try InProcessDaemon { handOver.components }
    }

    func ask(_ line: String) throws -> [String: Any] {
      let client = try RawSocketClient(path: daemon.socketPath)
      return try #require(client.ask(line))
    }
  }

  @Test("a loaded route is followed: status shows it waiting for a fix, with its destination; clear ends it")
  func loadAndClear() throws {
    let rig = try Rig()
    defer { rig.daemon.stop() }
    #expect(rig.daemon.waitUntilReady())
    let follower = try EventFollower(socketPath: rig.daemon.socketPath)
    let before = try rig.ask(#"{"v":1,"id":1,"cmd":"status"}"#)
    #expect((before["result"] as? [String: Any])?["guidance"] is NSNull)

    let loaded = try rig.ask(
      #"{"v":1,"id":2,"cmd":"route.load","args":{"name":"Ring","mode":"walking","coordinates":[{"lat":37.5,"lon":127.0},{"lat":37.5009,"lon":127.0},{"lat":37.5009,"lon":127.001}]}}"#
    )
    let result = try #require(loaded["result"] as? [String: Any], "\(loaded)")
    #expect(result["name"] as? String == "Ring")
    #expect(result["mode"] as? String == "walking")
    #expect(result["points"] as? Int == 3)
    #expect(result["source"] as? String == "file")
    let length = try #require(result["length_m"] as? Double)
    let expected =
      GeographicDistance.metres(
        from: GeoCoordinate(latitude: 37.5, longitude: 127.0), to: GeoCoordinate(latitude: 37.5009, longitude: 127.0))
      + GeographicDistance.metres(
        from: GeoCoordinate(latitude: 37.5009, longitude: 127.0),
        to: GeoCoordinate(latitude: 37.5009, longitude: 127.001))
    #expect(abs(length - expected) < 1e-6)
    let event = try #require(follower.wait(for: "guidance.route_loaded"))
    #expect(event.message == "following \"Ring\" (walking, 3 points, \(Int(expected.rounded())) m)")

    let status = try rig.ask(#"{"v":1,"id":3,"cmd":"status"}"#)
    let guidance = try #require((status["result"] as? [String: Any])?["guidance"] as? [String: Any])
    #expect(guidance["mode"] as? String == "walking")
    #expect(guidance["phase"] as? String == "waiting_for_fix")
    #expect(guidance["source"] as? String == "file")
    #expect(guidance["distance_along_m"] is NSNull)
    #expect(guidance["reroute"] is NSNull)
    #expect(guidance["destination"] as? [String: Double] == ["lat": 37.5009, "lon": 127.001])

    let cleared = try rig.ask(#"{"v":1,"id":4,"cmd":"route.clear"}"#)
    #expect((cleared["result"] as? [String: Any])?["message"] as? String == "Route cleared: no route is followed now.")
    #expect(follower.wait(for: "guidance.cleared") != nil)
    let after = try rig.ask(#"{"v":1,"id":5,"cmd":"status"}"#)
    #expect((after["result"] as? [String: Any])?["guidance"] is NSNull)
    let again = try rig.ask(#"{"v":1,"id":6,"cmd":"route.clear"}"#)
    #expect((again["result"] as? [String: Any])?["message"] as? String == "No route was being followed.")
  }

  @Test("a route of fewer than two distinct points is refused with the reason")
  func degenerateRoute() throws {
    let rig = try Rig()
    defer { rig.daemon.stop() }
    #expect(rig.daemon.waitUntilReady())
    let answer = try rig.ask(
      #"{"v":1,"id":1,"cmd":"route.load","args":{"coordinates":[{"lat":37.5,"lon":127.0},{"lat":37.5,"lon":127.0}]}}"#)
    #expect(answer.errorCode == "bad_arguments")
    #expect(answer.errorMessage == "route.load: \(GuidanceRouteError.tooFewPoints(distinct: 1).description)")
  }

  @Test("navigate before any position was accepted is refused, saying why")
  func navigateWithoutPosition() throws {
    let rig = try Rig()
    defer { rig.daemon.stop() }
    #expect(rig.daemon.waitUntilReady())
    let answer = try rig.ask(#"{"v":1,"id":1,"cmd":"navigate","args":{"destination":{"lat":37.5,"lon":127.0}}}"#)
    #expect(answer.errorCode == "unavailable")
    #expect(
      answer.errorMessage
        == "navigate: no position has been accepted yet, so there is no start for a route (is gpsd delivering fixes?)")
  }

  @Test("a routing URL the settings refuse stops start-up, naming it")
  func badRoutingURL() throws {
    let rig = try Rig { $0.routingURL = "ftp://example" }
    defer { rig.daemon.stop() }
    #expect(!rig.daemon.waitUntilReady())
    #expect(
      rig.daemon.failure.withLock { $0 }
        == "guidance could not start: routing URL \"ftp://example\" must start with http:// or https://")
  }

  @Test("a speech command with an unclosed quote stops start-up, naming it")
  func badSpeechCommand() throws {
    let rig = try Rig { $0.speechCommand = "espeak-ng -v 'ko" }
    defer { rig.daemon.stop() }
    #expect(!rig.daemon.waitUntilReady())
    #expect(
      rig.daemon.failure.withLock { $0 }
        == "guidance could not start: the speech command \"espeak-ng -v 'ko\" has an unclosed quote")
  }
}
