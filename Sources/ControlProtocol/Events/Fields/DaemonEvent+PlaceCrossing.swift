import FoundationEssentials

extension DaemonEvent {
  /// The vehicle entered or left a place (`PlaceTracker`, confirmed by a streak of kept
  /// fixes): the place's name and kind, and `fix_time`, the receiver's time of the streak's
  /// first fix, when it crossed.
  public struct PlaceCrossing: Sendable, Hashable, Codable {
    public var place: String
    public var kind: String
    @EventTime public var fixTime: Date

    public init(place: String, kind: String, fixTime: Date) {
      self.place = place
      self.kind = kind
      self.fixTime = fixTime
    }

    private enum CodingKeys: String, CodingKey {
      case place, kind
      case fixTime = "fix_time"
    }
  }
}
