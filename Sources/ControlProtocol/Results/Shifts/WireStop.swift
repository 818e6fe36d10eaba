import DashPilotCore
import FoundationEssentials

/// One stop on the wire (`shift show`'s `stops`): when the vehicle arrived and left, how
/// long it stood, how the stop began and ended as far as the rows show it (`start`:
/// `arrived`, `shift_started`, `after_gap`, `recording_began`; `end`: `departed`,
/// `shift_ended`, `before_gap`, `recording_ended`, `ongoing`), `cut` in
/// `StopWording.cut`'s words (null for a stop both of whose ends were seen), and where it
/// stood: the median position and how far the positions kept there lay from it, and
/// `place`, the name of the place it lies in (`Stop.place(in:)`; null when none does).
public struct WireStop: Sendable, Hashable, Codable {
  public var arrival: Date
  public var departure: Date
  public var durationSeconds: Double
  public var start: String
  public var end: String
  @ExplicitNull public var cut: String?
  public var latitude: Double
  public var longitude: Double
  @Decimetres public var wanderMetres: Double
  /// The rows it was read from.
  public var positions: Int
  @ExplicitNull public var place: String?

  /// `place`: the place it lies in, by `Stop.place(in:)`.
  public init(_ stop: Stop, place: Place? = nil) {
    arrival = stop.arrival
    departure = stop.departure
    durationSeconds = stop.duration
    start = stop.start.name
    end = stop.end.name
    cut = StopWording.cut(stop)
    latitude = stop.position.latitude
    longitude = stop.position.longitude
    wanderMetres = stop.wander
    positions = stop.positions
    self.place = place?.name
  }

  enum CodingKeys: String, CodingKey {
    case arrival, departure, start, end, cut, latitude, longitude, positions, place
    case durationSeconds = "duration_s"
    case wanderMetres = "wander_m"
  }
}
