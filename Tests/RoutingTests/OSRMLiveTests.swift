import DashPilotCore
import Guidance
import Routing
import TestSupport
import Testing

/// Against a real OSRM (PyPI's osrm-bindings: osrm-routed with OSRM's own car and foot
/// profiles) on loopback, over the same generated grid.
@Suite(.requiresOSRM) struct OSRMLiveTests {
  let car: RoutingEngineServer
  let foot: RoutingEngineServer

  init() throws {
    car = try LiveEngines.osrmCar.get()
    foot = try LiveEngines.osrmFoot.get()
  }

  @Test func drivingRouteRunsAlongTheGrid() throws {
    let grid = car.grid
    let origin = grid.node(row: 1, column: 0)
    let destination = grid.node(row: 3, column: 4)
    let route = try OSRMProvider(baseURL: car.baseURL)
      .route(for: RouteRequest(origin: origin, course: nil, destination: destination, mode: .driving)).get()
    #expect(route.provider == "osrm")
    #expect(GeographicDistance.metres(from: route.coordinates[0], to: origin) < 1)
    #expect(GeographicDistance.metres(from: route.coordinates[route.coordinates.count - 1], to: destination) < 1)
    #expect(RouteShape.worstOffStreet(route.coordinates, grid: grid) < 1)
  }

  /// Mid-block, the bearing decides which way the car sets off; without one, the shorter way
  /// wins. (At a node OSRM snaps to the start of a segment with the right bearing and may
  /// still turn at once: a bearing says which segment, not which way out of an intersection.)
  @Test(arguments: [(90.0, 90.0), (270.0, 270.0), (nil, 270.0)] as [(Double?, Double)])
  func bearingDecidesTheWayOutOfABlock(course: Double?, expected: Double) throws {
    let grid = car.grid
    let route = try OSRMProvider(baseURL: car.baseURL)
      .route(
        for: RouteRequest(
          origin: RouteShape.midBlock(grid), course: course, destination: grid.node(row: 4, column: 2), mode: .driving)
      ).get()
    let bearing = try #require(RouteShape.firstBearing(route.coordinates))
    #expect(
      GeographicDistance.angleBetween(bearing, expected) < 1,
      "first stretch \(bearing) for course \(String(describing: course))")
  }

  @Test func walkingGoesAgainstAOneWayStreet() throws {
    let grid = foot.grid
    let origin = grid.node(row: 5, column: 5)
    let route = try OSRMProvider(baseURL: foot.baseURL)
      .route(for: RouteRequest(origin: origin, course: nil, destination: grid.node(row: 5, column: 0), mode: .walking))
      .get()
    #expect(route.mode == .walking)
    #expect(route.coordinates.allSatisfy { abs($0.latitude - origin.latitude) < 0.000_001 })
  }

  @Test func aCarServerAskedForAWalkIsMismatched() {
    let grid = car.grid
    let result = OSRMProvider(baseURL: car.baseURL)
      .route(
        for: RouteRequest(
          origin: grid.node(row: 5, column: 5), course: nil, destination: grid.node(row: 5, column: 0), mode: .walking))
    #expect(
      result == .failure(RouteFailure(.mismatchedProvider, "osrm: answered with mode driving for a walking request")))
  }
}

@Suite(.requiresOSRM) struct OSRMStoppedTests {
  @Test func aKilledEngineIsATransientFailure() throws {
    let server = try RoutingEngineServer.startOSRM(profile: "car")
    defer { server.stop() }
    let provider = OSRMProvider(baseURL: server.baseURL)
    let request = RouteRequest(
      origin: server.grid.node(row: 0, column: 0), course: nil, destination: server.grid.node(row: 3, column: 3),
      mode: .driving)
    #expect(throws: Never.self) { try provider.route(for: request).get() }
    server.kill()
    #expect(provider.route(for: request).failureKind == .unavailable)
  }
}
