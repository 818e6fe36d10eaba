import DashPilotCore
import FoundationEssentials

extension DaemonEvent {
  /// A shift opened, and how: by hand (`shift start`), or on movement, when its window
  /// begins at the movement's first fix (`started_at`, on the receiver's clock, before the
  /// event). `reason` repeats `started_by`, as the journal's DASHPILOT_REASON does.
  public struct ShiftStarted: Sendable, Hashable, Codable {
    public var shift: Int64
    public var startedBy: ShiftStartCause
    /// The shift's start as stored; nil on a line from a daemon that did not say.
    @EventTime public var startedAt: Date?

    public init(shift: Int64, startedBy: ShiftStartCause = .manual, startedAt: Date? = nil) {
      self.shift = shift
      self.startedBy = startedBy
      self.startedAt = startedAt
    }

    private enum CodingKeys: String, CodingKey {
      case shift
      case startedBy = "started_by"
      case startedAt = "started_at"
    }

    public init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      shift = try container.decode(Int64.self, forKey: .shift)
      // A daemon before shifts started by themselves started them only by hand.
      startedBy = try container.decodeIfPresent(ShiftStartCause.self, forKey: .startedBy) ?? .manual
      _startedAt = try container.decode(EventTime<Date?>.self, forKey: .startedAt)
    }
  }
}
