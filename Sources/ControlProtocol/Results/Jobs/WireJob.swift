import DashPilotCore
import FoundationEssentials

/// One job on the wire (`job.list`, `shift show`'s `jobs`, the `job.*` events, the uplink's
/// shift message): the job as the office sent it, where it stands (`queued`, `arrived`,
/// `visited`, `not_reached`, `cancelled`), the shift it was arrived, visited or found
/// unreached in, and the stop's evidence (`visit`, null until a stop arrived it).
public struct WireJob: Sendable, Hashable, Codable {
  public var id: String
  public var name: String
  public var lat: Double
  public var lon: Double
  @Decimetres public var radiusMetres: Double
  @ExplicitNull public var windowStart: Date?
  @ExplicitNull public var windowEnd: Date?
  @ExplicitNull public var note: String?
  public var state: String
  @ExplicitNull public var shift: Int64?
  @ExplicitNull public var visit: WireJobVisit?

  public init(_ job: DeliveryJob, state: String, shift: Int64? = nil, visit: WireJobVisit? = nil) {
    id = job.id
    name = job.name
    lat = job.destination.latitude
    lon = job.destination.longitude
    radiusMetres = job.radius
    windowStart = job.window?.start
    windowEnd = job.window?.end
    note = job.note
    self.state = state
    self.shift = shift
    self.visit = visit
  }

  enum CodingKeys: String, CodingKey {
    case id, name, lat, lon, note, state, shift, visit
    case radiusMetres = "radius_m"
    case windowStart = "window_start"
    case windowEnd = "window_end"
  }
}

/// The stop that arrived or visited a job: when the car arrived and left (while it stands,
/// `departure` is when it was read and `stop_end` is `ongoing`), how long it stood, how far
/// from the destination, whether the receiver reported all along (false for a stop that
/// began after, or ended in, a gap in capture) and whether the arrival fell within the
/// job's window (null without one).
public struct WireJobVisit: Sendable, Hashable, Codable {
  public var arrival: Date
  public var departure: Date
  public var durationSeconds: Double
  @Decimetres public var distanceMetres: Double
  public var receiverReportedThroughout: Bool
  @ExplicitNull public var withinWindow: Bool?
  public var stopEnd: String

  public init(
    arrival: Date, departure: Date, distanceMetres: Double, receiverReportedThroughout: Bool, withinWindow: Bool?,
    stopEnd: String
  ) {
    self.arrival = arrival
    self.departure = departure
    durationSeconds = departure.timeIntervalSince(arrival)
    self.distanceMetres = distanceMetres
    self.receiverReportedThroughout = receiverReportedThroughout
    self.withinWindow = withinWindow
    self.stopEnd = stopEnd
  }

  enum CodingKeys: String, CodingKey {
    case arrival, departure
    case durationSeconds = "duration_s"
    case distanceMetres = "distance_m"
    case receiverReportedThroughout = "receiver_reported_throughout"
    case withinWindow = "within_window"
    case stopEnd = "stop_end"
  }
}
