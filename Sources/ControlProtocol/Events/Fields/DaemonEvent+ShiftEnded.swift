import DashPilotCore
import FoundationEssentials

extension DaemonEvent {
  /// A shift ended, how (`ended_by`), where its window ends (`ended_at`, on the receiver's
  /// clock: its last moving fix when it ended by itself) and its figure's summary ("12.4 mi
  /// recorded · partial route"). `reason` repeats `ended_by`.
  public struct ShiftEnded: Sendable, Hashable, Codable {
    public var shift: Int64
    public var summary: String
    public var endedBy: ShiftEndCause
    /// The shift's end as stored; nil on a line from a daemon that did not say.
    @EventTime public var endedAt: Date?
    /// The figure `summary` words, in metres (to 0.1 m), and whether it is partial; nil when
    /// it could not be read (or on a line from a daemon that did not say).
    @ExplicitNull public var distanceMetres: Double?
    @ExplicitNull public var partial: Bool?

    public init(
      shift: Int64, summary: String, endedBy: ShiftEndCause = .manual, endedAt: Date? = nil,
      distance: RouteDistance? = nil
    ) {
      self.shift = shift
      self.summary = summary
      self.endedBy = endedBy
      self.endedAt = endedAt
      distanceMetres = distance.map { ($0.metres * 10).rounded() / 10 }
      partial = distance?.isPartial
    }

    private enum CodingKeys: String, CodingKey {
      case shift, summary, partial
      case endedBy = "ended_by"
      case endedAt = "ended_at"
      case distanceMetres = "distance_m"
    }

    public init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      shift = try container.decode(Int64.self, forKey: .shift)
      summary = try container.decode(String.self, forKey: .summary)
      // A daemon before shifts ended by themselves ended them only by hand.
      endedBy = try container.decodeIfPresent(ShiftEndCause.self, forKey: .endedBy) ?? .manual
      _endedAt = try container.decode(EventTime<Date?>.self, forKey: .endedAt)
      _distanceMetres = try container.decode(ExplicitNull<Double>.self, forKey: .distanceMetres)
      _partial = try container.decode(ExplicitNull<Bool>.self, forKey: .partial)
    }
  }
}
