import DashPilotCore

/// How the route is travelled; it selects the guidance numbers and the provider's profile.
public enum TravelMode: String, Sendable, Hashable, Codable, CaseIterable {
  case driving
  case walking
}

/// What a reroute or navigate asks a routing engine for.
public struct RouteRequest: Sendable, Hashable {
  public var origin: GeoCoordinate
  /// The car's course in degrees, when its speed makes the course trustworthy.
  public var course: Double?
  public var destination: GeoCoordinate
  public var mode: TravelMode

  public init(origin: GeoCoordinate, course: Double?, destination: GeoCoordinate, mode: TravelMode) {
    self.origin = origin
    self.course = course
    self.destination = destination
    self.mode = mode
  }
}

/// A route a provider answered with.
public struct PlannedRoute: Sendable, Hashable {
  public var coordinates: [GeoCoordinate]
  /// Which provider answered, and for which mode: an answer for another one is refused
  /// as `mismatchedProvider`.
  public var provider: String
  public var mode: TravelMode

  public init(coordinates: [GeoCoordinate], provider: String, mode: TravelMode) {
    self.coordinates = coordinates
    self.provider = provider
    self.mode = mode
  }
}

/// Why a provider gave no route: the seed's taxonomy. A permanent failure stops rerouting
/// (waiting cannot fix it); a transient one is retried while the car is still off route.
public struct RouteFailure: Error, Sendable, Hashable {
  public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
    // Permanent.
    case quotaExhausted = "quota_exhausted"
    case credentials = "credentials"
    case permissionRestricted = "permission_restricted"
    case unsupportedRegionOrMode = "unsupported_region_or_mode"
    case mismatchedProvider = "mismatched_provider"
    // Transient.
    case unavailable = "unavailable"
    case noRoute = "no_route"
    case unreadableResponse = "unreadable_response"
    case connectionDropped = "connection_dropped"

    public var isPermanent: Bool {
      switch self {
      case .quotaExhausted, .credentials, .permissionRestricted, .unsupportedRegionOrMode,
        .mismatchedProvider:
        true
      case .unavailable, .noRoute, .unreadableResponse, .connectionDropped: false
      }
    }
  }

  public var kind: Kind
  /// What the provider said, for the journal.
  public var detail: String

  public init(_ kind: Kind, _ detail: String) {
    self.kind = kind
    self.detail = detail
  }

  public var isPermanent: Bool { kind.isPermanent }
}

/// A routing engine. Calls block (HTTP), so the daemon makes them on a thread of its own,
/// never on the Swift concurrency pool or the state owner's loop.
public protocol RouteProvider: Sendable {
  /// A short name ("valhalla", "osrm") that answers are checked against.
  var name: String { get }
  func route(for request: RouteRequest) -> Result<PlannedRoute, RouteFailure>
}
