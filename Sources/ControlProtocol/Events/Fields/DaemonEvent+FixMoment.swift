import FoundationEssentials

extension DaemonEvent {
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
}
