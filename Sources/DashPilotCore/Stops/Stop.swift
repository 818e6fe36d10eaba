import FoundationEssentials

/// A time the vehicle stood still with the receiver reporting, at least `StopPolicy`'s
/// minimum long: derived from a shift's kept and held rows when asked, never stored.
public struct Stop: Sendable, Hashable {
  /// How the stop began, as far as the rows show it.
  public enum Start: Sendable, Hashable {
    /// The vehicle was seen arriving: `arrival` is its last kept move before standing.
    case arrived
    /// The vehicle already stood when the shift began: `arrival` is the shift's start.
    case shiftStarted
    /// Capture began again after this gap with the vehicle standing: when it arrived is not
    /// known, and `arrival` is the first position after the gap.
    case afterGap(RouteGap)
    /// The rows begin with the vehicle standing (a log, a running shift read from its first
    /// row): `arrival` is the first position.
    case recordingBegan
  }

  /// How the stop ended, as far as the rows show it.
  public enum End: Sendable, Hashable {
    /// The vehicle was seen leaving: `departure` is its first kept move after standing.
    case departed
    /// Still standing when the shift ended: `departure` is the shift's end.
    case shiftEnded
    /// Capture was lost with the vehicle standing (this gap follows): `departure` is the
    /// last position before it. What happened during the gap is the gap's, never the stop's.
    case beforeGap(RouteGap)
    /// The rows end with the vehicle standing (the end of a log): `departure` is the last
    /// position.
    case recordingEnded
    /// The vehicle stands now (a running shift): `departure` is the time it was asked.
    case ongoing
  }

  public var arrival: Date
  public var departure: Date
  public var start: Start
  public var end: End
  /// Where it stood: the median of the positions kept while standing.
  public var position: GeoCoordinate
  /// How far (metres) the positions kept while standing lay from `position` at most: the
  /// receiver's wander, and any shuffling of the vehicle within the stop.
  public var wander: Double
  /// The rows the stop was read from: the arrival and every one kept until the departure.
  public var positions: Int

  public init(
    arrival: Date, departure: Date, start: Start, end: End, position: GeoCoordinate, wander: Double,
    positions: Int
  ) {
    self.arrival = arrival
    self.departure = departure
    self.start = start
    self.end = end
    self.position = position
    self.wander = wander
    self.positions = positions
  }

  public var duration: TimeInterval { departure.timeIntervalSince(arrival) }

  /// Whether the shift's end (or the moment a running shift was read) cut it: the vehicle
  /// had not left, so the duration is how long it had stood so far.
  public var isCutByShiftEnd: Bool {
    switch end {
    case .shiftEnded, .ongoing: true
    case .departed, .beforeGap, .recordingEnded: false
    }
  }

  /// Whether both ends were seen: the vehicle arrived and left while capture watched.
  public var isWhole: Bool { start == .arrived && end == .departed }
}

extension Stop.Start {
  /// Its name in JSON: `arrived`, `shift_started`, `after_gap`, `recording_began`.
  public var name: String {
    switch self {
    case .arrived: "arrived"
    case .shiftStarted: "shift_started"
    case .afterGap: "after_gap"
    case .recordingBegan: "recording_began"
    }
  }
}

extension Stop.End {
  /// Its name in JSON: `departed`, `shift_ended`, `before_gap`, `recording_ended`, `ongoing`.
  public var name: String {
    switch self {
    case .departed: "departed"
    case .shiftEnded: "shift_ended"
    case .beforeGap: "before_gap"
    case .recordingEnded: "recording_ended"
    case .ongoing: "ongoing"
    }
  }
}
