import DashPilotCore
import Foundation
import Guidance
import Routing
import TestSupport
import Testing

/// Against a real Valhalla (pyvalhalla-weekly's valhalla_service) on loopback, over the
/// generated 6x6 grid of streets 200 m apart.
@Suite(.requiresValhalla) struct ValhallaLiveTests {
  let server: RoutingEngineServer
  var grid: RoadGrid { server.grid }

  init() throws { server = try LiveEngines.valhalla.get() }

  @Test func drivingRouteRunsAlongTheGrid() throws {
    // Halfway up Column 1 Avenue between rows 0 and 1, to the node at row 4, column 3.
    let a = grid.node(row: 0, column: 1)
    let b = grid.node(row: 1, column: 1)
    let origin = GeoCoordinate(latitude: (a.latitude + b.latitude) / 2, longitude: a.longitude)
    let destination = grid.node(row: 4, column: 3)
    let provider = ValhallaProvider(baseURL: server.baseURL)
    let route = try provider.route(
      for: RouteRequest(origin: origin, course: nil, destination: destination, mode: .driving)
    ).get()
    #expect(route.provider == "valhalla")
    #expect(route.mode == .driving)
    #expect(GeographicDistance.metres(from: route.coordinates[0], to: origin) < 1)
    #expect(GeographicDistance.metres(from: route.coordinates[route.coordinates.count - 1], to: destination) < 1)
    #expect(RouteShape.worstOffStreet(route.coordinates, grid: grid) < 1)
    #expect(route.coordinates.count >= 3)
  }

  @Test(arguments: [90.0, 270.0])
  func headingIsHonoured(course: Double) throws {
    // From the node at row 2, column 2 to row 4, column 2: without a heading, straight north.
    let provider = ValhallaProvider(baseURL: server.baseURL)
    let request = RouteRequest(
      origin: grid.node(row: 2, column: 2), course: course, destination: grid.node(row: 4, column: 2), mode: .driving)
    let route = try provider.route(for: request).get()
    let bearing = try #require(RouteShape.firstBearing(route.coordinates))
    #expect(GeographicDistance.angleBetween(bearing, course) < 45, "first stretch \(bearing) for course \(course)")
    var unheaded = request
    unheaded.course = nil
    let straight = try provider.route(for: unheaded).get()
    let straightBearing = try #require(RouteShape.firstBearing(straight.coordinates))
    #expect(GeographicDistance.angleBetween(straightBearing, 0) < 1)
  }

  /// Mid-block, heading decides which way the car sets off; without one, the shorter way
  /// (back west to Column 2 Avenue, then north) wins.
  @Test(arguments: [(90.0, 90.0), (270.0, 270.0), (nil, 270.0)] as [(Double?, Double)])
  func headingDecidesTheWayOutOfABlock(course: Double?, expected: Double) throws {
    let provider = ValhallaProvider(baseURL: server.baseURL)
    let route = try provider.route(
      for: RouteRequest(
        origin: RouteShape.midBlock(grid), course: course, destination: grid.node(row: 4, column: 2), mode: .driving)
    ).get()
    let bearing = try #require(RouteShape.firstBearing(route.coordinates))
    #expect(
      GeographicDistance.angleBetween(bearing, expected) < 1,
      "first stretch \(bearing) for course \(String(describing: course))")
  }

  @Test func aDestinationOffTheNetworkIsNoRoute() {
    let provider = ValhallaProvider(baseURL: server.baseURL)
    let result = provider.route(
      for: RouteRequest(
        origin: grid.node(row: 0, column: 0), course: nil, destination: GeoCoordinate(latitude: 38.5, longitude: 128.0),
        mode: .driving))
    #expect(
      result == .failure(RouteFailure(.noRoute, "valhalla: HTTP 400, error 171: No suitable edges near location")))
  }

  @Test func anUnreachableStreetIsNoRoute() {
    let provider = ValhallaProvider(baseURL: server.baseURL)
    let result = provider.route(
      for: RouteRequest(
        origin: grid.node(row: 0, column: 0), course: nil, destination: grid.islandMidpoint, mode: .driving))
    #expect(
      result == .failure(RouteFailure(.noRoute, "valhalla: HTTP 400, error 442: No path could be found for input")))
  }

  /// Row 5 Street is one-way eastbound: walking west along it goes straight, driving cannot.
  @Test func walkingUsesPedestrianCosting() throws {
    let client = RecordingHTTPClient()
    let provider = ValhallaProvider(baseURL: server.baseURL, client: client)
    let origin = grid.node(row: 5, column: 5)
    let destination = grid.node(row: 5, column: 0)
    let walk = try provider.route(
      for: RouteRequest(origin: origin, course: nil, destination: destination, mode: .walking)
    ).get()
    let body = String(decoding: try #require(client.requests.first).body, as: UTF8.self)
    #expect(body.contains(#""costing":"pedestrian""#))
    #expect(!body.contains("heading"))
    #expect(walk.mode == .walking)
    #expect(walk.coordinates.allSatisfy { abs($0.latitude - origin.latitude) < 0.000_001 })
    let drive = try provider.route(
      for: RouteRequest(origin: origin, course: nil, destination: destination, mode: .driving)
    ).get()
    #expect(String(decoding: client.requests[1].body, as: UTF8.self).contains(#""costing":"auto""#))
    #expect(drive.coordinates.contains { abs($0.latitude - origin.latitude) > 0.001 })
  }
}

extension ValhallaLiveTests {
  /// Requests from many threads at once: each call has its own libcurl handle.
  @Test func concurrentRequestsFromManyThreadsAllSucceed() throws {
    let provider = ValhallaProvider(baseURL: server.baseURL)
    let request = RouteRequest(
      origin: grid.node(row: 0, column: 0), course: nil, destination: grid.node(row: 5, column: 5), mode: .driving)
    let expected = try provider.route(for: request).get()
    let results = ResultBox(count: 16)
    DispatchQueue.concurrentPerform(iterations: 16) { index in results.set(index, provider.route(for: request)) }
    #expect(results.all == Array(repeating: .success(expected), count: 16))
  }
}

/// Collects results written from many threads.
final class ResultBox: @unchecked Sendable {
  private let lock = NSLock()
  private var values: [Result<PlannedRoute, RouteFailure>?]

  init(count: Int) { values = Array(repeating: nil, count: count) }

  func set(_ index: Int, _ value: Result<PlannedRoute, RouteFailure>) { lock.withLock { values[index] = value } }

  var all: [Result<PlannedRoute, RouteFailure>?] { lock.withLock { values } }
}

/// A Valhalla of its own, killed mid-suite.
@Suite(.requiresValhalla) struct ValhallaStoppedTests {
  @Test func aKilledEngineIsATransientFailure() throws {
    let server = try RoutingEngineServer.startValhalla()
    defer { server.stop() }
    let provider = ValhallaProvider(baseURL: server.baseURL)
    let request = RouteRequest(
      origin: server.grid.node(row: 0, column: 0), course: nil, destination: server.grid.node(row: 3, column: 3),
      mode: .driving)
    #expect(throws: Never.self) { try provider.route(for: request).get() }
    server.kill()
    let failure = try #require(provider.route(for: request).failure)
    #expect(failure.kind == .unavailable, "\(failure.detail)")
    #expect(!failure.isPermanent)
  }
}
