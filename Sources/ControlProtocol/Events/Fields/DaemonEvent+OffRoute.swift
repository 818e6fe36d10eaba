import FoundationEssentials

extension DaemonEvent {
  /// Leaving the route confirmed, `lateral_m` from it (null: no part of the route was near).
  public struct OffRoute: Sendable, Hashable, Codable {
    @EventTime public var fixTime: Date
    @EventTime public var at: Date
    @ExplicitNull public var lateralMetres: Double?

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
  }
}
