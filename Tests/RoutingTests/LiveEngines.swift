import DashPilotCore
import Foundation
import Routing
import TestSupport

/// One engine of each kind per test process, shared by the suites that only ask it for
/// routes; a suite that kills an engine starts its own.
enum LiveEngines {
  static let valhalla = start { try RoutingEngineServer.startValhalla() }
  static let osrmCar = start { try RoutingEngineServer.startOSRM(profile: "car") }
  static let osrmFoot = start { try RoutingEngineServer.startOSRM(profile: "foot") }

  static func start(_ body: () throws -> RoutingEngineServer) -> Result<
    RoutingEngineServer, RoutingEngineServer.StartError
  > {
    do {
      return .success(try body())
    } catch let error as RoutingEngineServer.StartError {
      return .failure(error)
    } catch {
      return .failure(RoutingEngineServer.StartError(description: "\(error)"))
    }
  }
}

/// A recording wrapper at the HTTP seam: forwards to libcurl, keeps what was sent.
final class RecordingHTTPClient: HTTPClient, @unchecked Sendable {
  private let lock = NSLock()
  private let inner = CurlHTTPClient()
  private var sent: [HTTPRequest] = []

  var requests: [HTTPRequest] { lock.withLock { sent } }

  func send(_ request: HTTPRequest) -> Result<HTTPResponse, HTTPTransportError> {
    lock.withLock { sent.append(request) }
    return inner.send(request)
  }
}

/// Geometry checks shared by the live tests.
enum RouteShape {
  /// The bearing of the first stretch longer than a metre.
  static func firstBearing(_ coordinates: [GeoCoordinate]) -> Double? {
    guard let start = coordinates.first else { return nil }
    for next in coordinates.dropFirst() where GeographicDistance.metres(from: start, to: next) > 1 {
      return GeographicDistance.initialBearing(from: start, to: next)
    }
    return nil
  }

  /// A quarter of the way (50 m) from the node at row 2, column 2 east towards column 3, on
  /// Row 2 Street: mid-block, so a car there can only go on east or turn back west.
  static func midBlock(_ grid: RoadGrid) -> GeoCoordinate {
    let a = grid.node(row: 2, column: 2)
    let b = grid.node(row: 2, column: 3)
    return GeoCoordinate(latitude: a.latitude, longitude: a.longitude + (b.longitude - a.longitude) / 4)
  }

  /// The greatest distance of any vertex from the grid's streets.
  static func worstOffStreet(_ coordinates: [GeoCoordinate], grid: RoadGrid) -> Double {
    coordinates.map { grid.distanceToNearestStreet($0) }.max() ?? .infinity
  }
}
