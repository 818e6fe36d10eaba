import DashPilotCore
import Guidance
import Routing
import Testing

/// Each mapping against an answer recorded from a real osrm-routed (PyPI's osrm-bindings,
/// OSRM's own car.lua and foot.lua) over the generated grid; no engine needed.
@Suite struct OSRMRecordedAnswerTests {
  let driving = RouteRequest(
    origin: GeoCoordinate(latitude: 37.5, longitude: 127.0), course: nil,
    destination: GeoCoordinate(latitude: 37.508_993_2, longitude: 127.011_335_7), mode: .driving)
  var walking: RouteRequest {
    var request = driving
    request.mode = .walking
    return request
  }

  func interpret(_ name: String, _ request: RouteRequest) throws -> Result<PlannedRoute, RouteFailure> {
    OSRMAnswer.interpret(try RecordedAnswer.load("osrm", name).response, for: request)
  }

  @Test func drivingRouteIsDecodedFromPolyline6() throws {
    let route = try interpret("route_driving", driving).get()
    #expect(route.provider == "osrm")
    #expect(route.mode == .driving)
    #expect(route.coordinates.first == GeoCoordinate(latitude: 37.5, longitude: 127.0))
    #expect(route.coordinates.last == GeoCoordinate(latitude: 37.508993, longitude: 127.011336))
    #expect(route.coordinates.count == 11)
  }

  @Test func footRouteForAWalkingRequest() throws {
    let route = try interpret("route_foot", walking).get()
    #expect(route.mode == .walking)
    #expect(route.coordinates.last == GeoCoordinate(latitude: 37.508993, longitude: 127.011336))
  }

  /// osrm-routed answers a `foot` URL with the car profile it was built with.
  @Test func aCarServerAnsweringAWalkingRequestIsMismatched() throws {
    #expect(
      try interpret("mismatch_foot_request_to_car_server", walking)
        == .failure(RouteFailure(.mismatchedProvider, "osrm: answered with mode driving for a walking request")))
    #expect(
      try interpret("route_foot", driving)
        == .failure(RouteFailure(.mismatchedProvider, "osrm: answered with mode walking for a driving request")))
  }

  @Test func noRouteAndNoSegmentAreNoRoute() throws {
    #expect(
      try interpret("error_NoRoute_unreachable_island", driving)
        == .failure(RouteFailure(.noRoute, "osrm: HTTP 400, NoRoute: Impossible route between points")))
    #expect(try interpret("error_NoRoute_far_away", driving).failureKind == .noRoute)
    #expect(
      try interpret("error_NoSegment_no_edge_with_bearing", driving)
        == .failure(
          RouteFailure(.noRoute, "osrm: HTTP 400, NoSegment: Could not find a matching segment for coordinate 0")))
  }

  @Test func requestsTheServerRefusesMeanItIsNotTheAPIWeSpeak() throws {
    for name in [
      "error_InvalidOptions_bearings_count", "error_InvalidQuery_malformed_coordinates", "error_InvalidService",
      "error_InvalidVersion", "error_InvalidUrl",
    ] {
      #expect(try interpret(name, driving).failureKind == .mismatchedProvider, "\(name)")
    }
    #expect(
      try interpret("error_InvalidService", driving)
        == .failure(RouteFailure(.mismatchedProvider, "osrm: HTTP 400, InvalidService: Service nothing not found!")))
  }

  @Test func aValhallaAnswerIsMismatched() throws {
    let valhalla = try RecordedAnswer.load("valhalla", "route_auto").response
    #expect(
      OSRMAnswer.interpret(valhalla, for: driving)
        == .failure(RouteFailure(.mismatchedProvider, "osrm: the answer is Valhalla's, not OSRM's")))
    let valhallaError = try RecordedAnswer.load("valhalla", "error_171_no_suitable_edges").response
    #expect(OSRMAnswer.interpret(valhallaError, for: driving).failureKind == .mismatchedProvider)
  }

  /// Codes OSRM documents (api/http.md) but that this grid cannot provoke: documented
  /// format, not recorded.
  @Test func documentedCodesNotProvokedHere() {
    let tooBig = HTTPResponse(
      status: 400, body: Array(#"{"code":"TooBig","message":"Too many trace coordinates"}"#.utf8))
    #expect(OSRMAnswer.interpret(tooBig, for: driving).failureKind == .unsupportedRegionOrMode)
    #expect(OSRMAnswer.kind(forCode: "DisabledDataset") == .unavailable)
    #expect(OSRMAnswer.kind(forCode: "SomethingNew") == .unavailable)
    #expect(OSRMAnswer.kind(forCode: "InvalidValue") == .mismatchedProvider)
  }

  @Test func unreadableBodies() {
    #expect(
      OSRMAnswer.interpret(
        HTTPResponse(status: 200, body: Array(#"{"code":"Ok","routes":[{"geometry":"_eyofA"}]}"#.utf8)), for: driving)
        == .failure(RouteFailure(.unreadableResponse, "osrm: the route has no readable polyline6 geometry")))
    #expect(
      OSRMAnswer.interpret(HTTPResponse(status: 200, body: Array("[]".utf8)), for: driving)
        == .failure(RouteFailure(.unreadableResponse, "osrm: HTTP 200 with a body it could not read: []")))
    #expect(
      OSRMAnswer.interpret(HTTPResponse(status: 503, body: []), for: driving)
        == .failure(RouteFailure(.unavailable, "osrm: HTTP 503")))
  }
}
