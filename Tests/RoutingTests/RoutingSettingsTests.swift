import DashPilotCore
import Guidance
import Routing
import Testing

@Suite struct RoutingSettingsTests {
  @Test func validSettingsMakeTheNamedProvider() throws {
    let valhalla = try RoutingSettings(engine: "Valhalla", baseURL: "http://127.0.0.1:8002")
    #expect(valhalla.engine == .valhalla)
    #expect(valhalla.makeProvider().name == "valhalla")
    let osrm = try RoutingSettings(engine: "osrm", baseURL: "https://router.example/osrm", headingTolerance: 30)
    let provider = try #require(osrm.makeProvider() as? OSRMProvider)
    #expect(provider.bearingRange == 30)
    #expect(provider.baseURL == "https://router.example/osrm")
  }

  @Test func eachMistakeIsNamed() {
    #expect(throws: RoutingSettingsError("unknown routing provider \"mapkit\" (expected valhalla or osrm)")) {
      try RoutingSettings(engine: "mapkit", baseURL: "http://h")
    }
    #expect(throws: RoutingSettingsError("routing URL \"127.0.0.1:8002\" must start with http:// or https://")) {
      try RoutingSettings(engine: "valhalla", baseURL: "127.0.0.1:8002")
    }
    #expect(
      throws: RoutingSettingsError("routing URL \"http://:8002\" has no host, or holds a space, query or fragment")
    ) {
      try RoutingSettings(engine: "valhalla", baseURL: "http://:8002")
    }
    #expect(
      throws: RoutingSettingsError(
        "routing timeouts must be positive and the total (500 ms) at least the connect timeout (2000 ms)")
    ) {
      try RoutingSettings(
        engine: "osrm", baseURL: "http://h", connectTimeoutMilliseconds: 2_000, totalTimeoutMilliseconds: 500)
    }
    #expect(throws: RoutingSettingsError("heading tolerance 0 must be between 1 and 180 degrees")) {
      try RoutingSettings(engine: "osrm", baseURL: "http://h", headingTolerance: 0)
    }
  }

  /// The settings' timeouts reach libcurl: a server that never answers is given up on in time.
  @Test func timeoutsReachTheClient() throws {
    let server = try LoopbackHTTPServer(.hang)
    defer { server.stop() }
    let settings = try RoutingSettings(
      engine: "valhalla", baseURL: server.url, connectTimeoutMilliseconds: 100, totalTimeoutMilliseconds: 200)
    let failure = try #require(
      settings.makeProvider().route(
        for: RouteRequest(
          origin: GeoCoordinate(latitude: 1, longitude: 2), course: nil,
          destination: GeoCoordinate(latitude: 1, longitude: 3),
          mode: .driving)
      ).failure)
    #expect(failure.kind == .connectionDropped)
    #expect(failure.detail.hasPrefix("valhalla: Operation timed out after 2"))
  }
}
