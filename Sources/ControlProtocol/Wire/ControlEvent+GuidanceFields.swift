import FoundationEssentials

// The fields of guidance's events. Distances are metres and bearings degrees, one decimal;
// `at` is when the daemon acted (wall clock) and `fix_time` the receiver's time of the fix
// that caused it.

extension DaemonEvent {
  /// A route now followed: loaded from a file (`source` "file") or planned by `navigate`
  /// (`source` the provider, with the call's latency and the way the route sets off).
  public struct RouteFollowed: Sendable, Hashable, Codable {
    public var mode: WireTravelMode
    public var source: String
    public var points: Int
    public var lengthMetres: Double
    public var destination: WireCoordinate
    public var latencyMilliseconds: Double?
    public var firstBearing: Double?

    public init(
      mode: WireTravelMode, source: String, points: Int, lengthMetres: Double, destination: WireCoordinate,
      latencyMilliseconds: Double? = nil, firstBearing: Double? = nil
    ) {
      self.mode = mode
      self.source = source
      self.points = points
      self.lengthMetres = lengthMetres
      self.destination = destination
      self.latencyMilliseconds = latencyMilliseconds
      self.firstBearing = firstBearing
    }

    private enum CodingKeys: String, CodingKey {
      case mode, source, points, destination
      case lengthMetres = "length_m"
      case latencyMilliseconds = "latency_ms"
      case firstBearing = "first_bearing"
    }
  }

  /// A route asked of the provider: from where, to where, how, and the car's course when
  /// its speed makes the course trustworthy (null otherwise).
  public struct RouteAsked: Sendable, Hashable, Codable {
    public var origin: WireCoordinate
    public var destination: WireCoordinate
    public var mode: WireTravelMode
    public var course: Double?

    public init(origin: WireCoordinate, destination: WireCoordinate, mode: WireTravelMode, course: Double?) {
      self.origin = origin
      self.destination = destination
      self.mode = mode
      self.course = course
    }

    private enum CodingKeys: String, CodingKey { case origin, destination, mode, course }

    public init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      origin = try container.decode(WireCoordinate.self, forKey: .origin)
      destination = try container.decode(WireCoordinate.self, forKey: .destination)
      mode = try container.decode(WireTravelMode.self, forKey: .mode)
      course = try container.decodeIfPresent(Double.self, forKey: .course)
    }

    public func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(origin, forKey: .origin)
      try container.encode(destination, forKey: .destination)
      try container.encode(mode, forKey: .mode)
      try container.encode(course, forKey: .course)
    }
  }

  /// A reroute asked for: the route asked, which request it is ("reroute-2") and when.
  public struct RerouteAsked: Sendable, Hashable, Codable {
    public var route: RouteAsked
    public var request: String
    @EventTime public var at: Date

    public init(route: RouteAsked, request: String, at: Date) {
      self.route = route
      self.request = request
      self.at = at
    }

    private enum CodingKeys: String, CodingKey { case request, at }

    public init(from decoder: any Decoder) throws {
      route = try RouteAsked(from: decoder)
      let container = try decoder.container(keyedBy: CodingKeys.self)
      request = try container.decode(String.self, forKey: .request)
      _at = try container.decode(EventTime.self, forKey: .at)
    }

    public func encode(to encoder: any Encoder) throws {
      try route.encode(to: encoder)
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(request, forKey: .request)
      try container.encode(_at, forKey: .at)
    }
  }

  /// `navigate` got no route: the failure's class and the provider's words.
  public struct NavigateFailed: Sendable, Hashable, Codable {
    public var failure: String
    public var detail: String

    public init(failure: String, detail: String) {
      self.failure = failure
      self.detail = detail
    }

    // `reason` repeats `failure`, as the journal's DASHPILOT_REASON does.
    private enum CodingKeys: String, CodingKey { case failure, detail, reason }

    public init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      failure = try container.decode(String.self, forKey: .failure)
      detail = try container.decode(String.self, forKey: .detail)
    }

    public func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(failure, forKey: .failure)
      try container.encode(detail, forKey: .detail)
      try container.encode(failure, forKey: .reason)
    }
  }

  /// An engine event with nothing more to say than when: joined, back on route, arrived.
  public struct FixMoment: Sendable, Hashable, Codable {
    @EventTime public var fixTime: Date
    @EventTime public var at: Date

    public init(fixTime: Date, at: Date) {
      self.fixTime = fixTime
      self.at = at
    }

    private enum CodingKeys: String, CodingKey {
      case at
      case fixTime = "fix_time"
    }
  }

  /// Leaving the route confirmed, `lateral_m` from it (null: no part of the route was near).
  public struct OffRoute: Sendable, Hashable, Codable {
    @EventTime public var fixTime: Date
    @EventTime public var at: Date
    public var lateralMetres: Double?

    public init(fixTime: Date, at: Date, lateralMetres: Double?) {
      self.fixTime = fixTime
      self.at = at
      self.lateralMetres = lateralMetres
    }

    private enum CodingKeys: String, CodingKey {
      case at
      case fixTime = "fix_time"
      case lateralMetres = "lateral_m"
    }

    public init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      _fixTime = try container.decode(EventTime.self, forKey: .fixTime)
      _at = try container.decode(EventTime.self, forKey: .at)
      lateralMetres = try container.decodeIfPresent(Double.self, forKey: .lateralMetres)
    }

    public func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(_fixTime, forKey: .fixTime)
      try container.encode(_at, forKey: .at)
      try container.encode(lateralMetres, forKey: .lateralMetres)
    }
  }

  /// How far along the route the car is, and how far it has to go.
  public struct Progress: Sendable, Hashable, Codable {
    @EventTime public var fixTime: Date
    @EventTime public var at: Date
    public var alongMetres: Double
    public var remainingMetres: Double

    public init(fixTime: Date, at: Date, alongMetres: Double, remainingMetres: Double) {
      self.fixTime = fixTime
      self.at = at
      self.alongMetres = alongMetres
      self.remainingMetres = remainingMetres
    }

    private enum CodingKeys: String, CodingKey {
      case at
      case fixTime = "fix_time"
      case alongMetres = "along_m"
      case remainingMetres = "remaining_m"
    }
  }

  /// A line said to the driver (the message is the line): which one, in which language.
  public struct Spoken: Sendable, Hashable, Codable {
    /// "left_route" or "route_not_found".
    public var kind: String
    /// "ko" or "en".
    public var language: String
    @EventTime public var at: Date

    public init(kind: String, language: String, at: Date) {
      self.kind = kind
      self.language = language
      self.at = at
    }
  }

  /// A reroute request the car no longer needs, or whose late answer was dropped.
  public struct RerouteRef: Sendable, Hashable, Codable {
    public var request: String
    @EventTime public var at: Date

    public init(request: String, at: Date) {
      self.request = request
      self.at = at
    }
  }

  /// A new route installed. `request`, `latency_ms` (the provider call) and
  /// `since_off_route_ms` (what the driver waited) are absent when not known.
  public struct Rerouted: Sendable, Hashable, Codable {
    public var points: Int
    public var lengthMetres: Double
    public var firstBearing: Double
    public var start: WireCoordinate
    @EventTime public var at: Date
    public var request: String?
    public var latencyMilliseconds: Double?
    public var sinceOffRouteMilliseconds: Double?

    public init(
      points: Int, lengthMetres: Double, firstBearing: Double, start: WireCoordinate, at: Date,
      request: String? = nil, latencyMilliseconds: Double? = nil, sinceOffRouteMilliseconds: Double? = nil
    ) {
      self.points = points
      self.lengthMetres = lengthMetres
      self.firstBearing = firstBearing
      self.start = start
      self.at = at
      self.request = request
      self.latencyMilliseconds = latencyMilliseconds
      self.sinceOffRouteMilliseconds = sinceOffRouteMilliseconds
    }

    private enum CodingKeys: String, CodingKey {
      case points, start, at, request
      case lengthMetres = "length_m"
      case firstBearing = "first_bearing"
      case latencyMilliseconds = "latency_ms"
      case sinceOffRouteMilliseconds = "since_off_route_ms"
    }
  }

  /// A reroute got no route. A transient failure is asked again at `retry_at`; a permanent
  /// one (`permanent` true, no `retry_at`) ends this departure's rerouting.
  public struct RerouteFailed: Sendable, Hashable, Codable {
    public var failure: String
    public var detail: String
    public var permanent: Bool
    public var retryAt: Date?
    @EventTime public var at: Date

    public init(failure: String, detail: String, permanent: Bool, retryAt: Date?, at: Date) {
      self.failure = failure
      self.detail = detail
      self.permanent = permanent
      self.retryAt = retryAt
      self.at = at
    }

    // `reason` repeats `failure`, as the journal's DASHPILOT_REASON does.
    private enum CodingKeys: String, CodingKey {
      case failure, detail, permanent, at, reason
      case retryAt = "retry_at"
    }

    public init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      failure = try container.decode(String.self, forKey: .failure)
      detail = try container.decode(String.self, forKey: .detail)
      permanent = try container.decode(Bool.self, forKey: .permanent)
      retryAt = try container.decodeIfPresent(EventTime.self, forKey: .retryAt)?.wrappedValue
      _at = try container.decode(EventTime.self, forKey: .at)
    }

    public func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(failure, forKey: .failure)
      try container.encode(detail, forKey: .detail)
      try container.encode(permanent, forKey: .permanent)
      try container.encodeIfPresent(retryAt.map(EventTime.init(wrappedValue:)), forKey: .retryAt)
      try container.encode(_at, forKey: .at)
      try container.encode(failure, forKey: .reason)
    }
  }

  /// The speech command failed (said once, not once per line).
  public struct SpeechFailed: Sendable, Hashable, Codable {
    public var problem: String
    public static let reason = "speech_failed"

    public init(problem: String) {
      self.problem = problem
    }

    private enum CodingKeys: String, CodingKey { case problem, reason }

    public init(from decoder: any Decoder) throws {
      problem = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .problem)
    }

    public func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(problem, forKey: .problem)
      try container.encode(Self.reason, forKey: .reason)
    }
  }
}
