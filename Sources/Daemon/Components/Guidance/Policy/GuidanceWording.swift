import ControlProtocol
import DashPilotCore
import FoundationEssentials
import Guidance

/// How guidance words what it does for the journal and `events` followers, and rounds the
/// numbers in its events (one decimal). POSIX digits: the daemon loads no locale data.
enum GuidanceWording {
  static func metres(_ value: Double) -> String { "\(Int(value.rounded())) m" }

  static func rounded(_ value: Double) -> Double { (value * 10).rounded() / 10 }

  static func place(_ coordinate: GeoCoordinate) -> String {
    "\(FixedDecimal.text(coordinate.latitude, digits: 6) ?? "?"),\(FixedDecimal.text(coordinate.longitude, digits: 6) ?? "?")"
  }

  static func routeLoaded(name: String?, mode: TravelMode, route: GuidanceRoute) -> String {
    "following \(name.map { "\"\($0)\"" } ?? "a loaded route") (\(mode.rawValue), \(route.points.count) points, \(metres(route.length)))"
  }

  static func routePlanned(by provider: String, to destination: GeoCoordinate, mode: TravelMode, route: GuidanceRoute)
    -> String
  {
    "following a \(mode.rawValue) route from \(provider) to \(place(destination)) (\(route.points.count) points, \(metres(route.length)))"
  }

  static func navigateRequested(of provider: String, _ request: RouteRequest) -> String {
    "asking \(provider) for a \(request.mode.rawValue) route to \(place(request.destination))"
  }

  static func rerouteRequested(of provider: String, _ request: RouteRequest, id: RerouteRequestID) -> String {
    "asking \(provider) for a new \(request.mode.rawValue) route (\(id))"
      + (request.course.map { ", heading \(Int($0.rounded()))°" } ?? ", no trustworthy heading")
  }

  static func engineEvent(_ event: GuidanceEvent) -> String {
    switch event {
    case .joined: "joined the route"
    case .offRoute(let lateral):
      lateral.isFinite ? "off route: \(metres(lateral)) from it" : "off route: nowhere near it"
    case .backOnRoute: "back on the route"
    case .progress(let along, let remaining): "\(metres(along)) along the route, \(metres(remaining)) to go"
    case .arrived: "arrived at the end of the route"
    }
  }

  static func rerouted(_ route: GuidanceRoute) -> String {
    "following a new route (\(route.points.count) points, \(metres(route.length)))"
  }
}

extension WireCoordinate {
  init(_ coordinate: GeoCoordinate) {
    self.init(lat: coordinate.latitude, lon: coordinate.longitude)
  }
}

extension DaemonEvent.RouteAsked {
  init(_ request: RouteRequest) {
    self.init(
      origin: WireCoordinate(request.origin), destination: WireCoordinate(request.destination),
      mode: WireTravelMode(request.mode), course: request.course.map(GuidanceWording.rounded))
  }
}
