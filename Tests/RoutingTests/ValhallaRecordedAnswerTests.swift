import DashPilotCore
import Guidance
import Routing
import Testing

/// Each mapping against an answer recorded from a real Valhalla (pyvalhalla-weekly) over the
/// generated grid; no engine needed.
@Suite struct ValhallaRecordedAnswerTests {
  let driving = RouteRequest(
    origin: GeoCoordinate(latitude: 37.5, longitude: 127.0), course: nil,
    destination: GeoCoordinate(latitude: 37.508_993_2, longitude: 127.011_335_7), mode: .driving)
  var walking: RouteRequest {
    var request = driving
    request.mode = .walking
    return request
  }

  func interpret(_ name: String, _ request: RouteRequest) throws -> Result<PlannedRoute, RouteFailure> {
    ValhallaAnswer.interpret(try RecordedAnswer.load("valhalla", name).response, for: request)
  }

  @Test func drivingRouteIsDecodedFromPolyline6() throws {
    let route = try interpret("route_auto", driving).get()
    #expect(route.provider == "valhalla")
    #expect(route.mode == .driving)
    #expect(route.coordinates.count == 11)
    #expect(route.coordinates.first == GeoCoordinate(latitude: 37.5, longitude: 127.0))
    #expect(route.coordinates.last == GeoCoordinate(latitude: 37.508993, longitude: 127.011336))
    // East along Row 0 Street (primary), then north up Column 5 Avenue: the corner is node (0, 5).
    #expect(route.coordinates[5] == GeoCoordinate(latitude: 37.5, longitude: 127.011336))
  }

  @Test func walkingRouteIsAcceptedForAWalkingRequest() throws {
    let route = try interpret("route_pedestrian", walking).get()
    #expect(route.mode == .walking)
    #expect(route.coordinates.first == GeoCoordinate(latitude: 37.5, longitude: 127.0))
    #expect(route.coordinates.last == GeoCoordinate(latitude: 37.508993, longitude: 127.011336))
  }

  @Test func anAnswerForAnotherModeIsMismatched() throws {
    #expect(
      try interpret("route_pedestrian", driving)
        == .failure(
          RouteFailure(.mismatchedProvider, "valhalla: answered with travel mode pedestrian for a driving request")))
    #expect(
      try interpret("route_auto", walking)
        == .failure(
          RouteFailure(.mismatchedProvider, "valhalla: answered with travel mode drive for a walking request")))
  }

  @Test func error171NoSuitableEdgesIsNoRoute() throws {
    let result = try interpret("error_171_no_suitable_edges", driving)
    #expect(
      result == .failure(RouteFailure(.noRoute, "valhalla: HTTP 400, error 171: No suitable edges near location")))
    #expect(result.failureKind?.isPermanent == false)
  }

  @Test func error442NoPathIsNoRoute() throws {
    #expect(
      try interpret("error_442_unreachable_island", driving)
        == .failure(RouteFailure(.noRoute, "valhalla: HTTP 400, error 442: No path could be found for input")))
  }

  @Test func error125UnknownCostingIsUnsupportedMode() throws {
    let result = try interpret("error_125_unknown_costing", driving)
    #expect(
      result
        == .failure(
          RouteFailure(.unsupportedRegionOrMode, "valhalla: HTTP 400, error 125: No costing method found: 'hovercraft'")
        ))
    #expect(result.failureKind?.isPermanent == true)
  }

  @Test func requestsTheServerCannotParseMeanItIsNotTheAPIWeSpeak() throws {
    #expect(try interpret("error_100_unparseable_request", driving).failureKind == .mismatchedProvider)
    #expect(try interpret("error_120_one_location", driving).failureKind == .mismatchedProvider)
    #expect(try interpret("error_130_bad_location", driving).failureKind == .mismatchedProvider)
    #expect(
      try interpret("error_106_unknown_endpoint", driving).failure?.detail.hasPrefix(
        "valhalla: HTTP 404, error 106: Try any of:")
        == true)
    #expect(try interpret("error_106_unknown_endpoint", driving).failureKind == .mismatchedProvider)
  }

  @Test func anOSRMAnswerIsMismatched() throws {
    let osrm = try RecordedAnswer.load("osrm", "route_driving").response
    #expect(
      ValhallaAnswer.interpret(osrm, for: driving)
        == .failure(RouteFailure(.mismatchedProvider, "valhalla: the answer is OSRM's (code Ok), not Valhalla's")))
  }

  @Test func unreadableBodies() throws {
    #expect(
      ValhallaAnswer.interpret(HTTPResponse(status: 200, body: Array("<html>hi</html>".utf8)), for: driving)
        == .failure(
          RouteFailure(.unreadableResponse, "valhalla: HTTP 200 with a body it could not read: <html>hi</html>")))
    // A recorded route whose shape is cut short.
    let whole = try RecordedAnswer.load("valhalla", "route_auto").body
    let cut = whole.replacingOccurrences(of: "\"shape\":\"_eyofA", with: "\"shape\":\"_")
    #expect(
      ValhallaAnswer.interpret(HTTPResponse(status: 200, body: Array(cut.utf8)), for: driving)
        == .failure(RouteFailure(.unreadableResponse, "valhalla: leg 0 has no readable shape")))
    #expect(
      ValhallaAnswer.interpret(HTTPResponse(status: 502, body: Array("Bad Gateway".utf8)), for: driving)
        == .failure(RouteFailure(.unavailable, "valhalla: HTTP 502 Bad Gateway")))
  }

  @Test func errorCodeTable() {
    let expected: [Int: RouteFailure.Kind] = [
      170: .noRoute, 171: .noRoute, 172: .noRoute, 442: .noRoute, 443: .noRoute,
      124: .unsupportedRegionOrMode, 125: .unsupportedRegionOrMode, 154: .unsupportedRegionOrMode,
      100: .mismatchedProvider, 106: .mismatchedProvider, 130: .mismatchedProvider,
      199: .unavailable, 299: .unavailable, 499: .unavailable, 503: .unavailable,
    ]
    for (code, kind) in expected { #expect(ValhallaAnswer.kind(forErrorCode: code) == kind, "error \(code)") }
  }
}

extension Result where Failure == RouteFailure {
  var failure: RouteFailure? {
    if case .failure(let failure) = self { return failure }
    return nil
  }

  var failureKind: RouteFailure.Kind? { failure?.kind }
}
