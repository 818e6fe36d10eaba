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

    public init(shift: Int64, summary: String, endedBy: ShiftEndCause = .manual, endedAt: Date? = nil) {
      self.shift = shift
      self.summary = summary
      self.endedBy = endedBy
      self.endedAt = endedAt
    }

    private enum CodingKeys: String, CodingKey {
      case shift, summary
      case endedBy = "ended_by"
      case endedAt = "ended_at"
    }

    public init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      shift = try container.decode(Int64.self, forKey: .shift)
      summary = try container.decode(String.self, forKey: .summary)
      // A daemon before shifts ended by themselves ended them only by hand.
      endedBy = try container.decodeIfPresent(ShiftEndCause.self, forKey: .endedBy) ?? .manual
      _endedAt = try container.decode(EventTime<Date?>.self, forKey: .endedAt)
    }
  }
}
