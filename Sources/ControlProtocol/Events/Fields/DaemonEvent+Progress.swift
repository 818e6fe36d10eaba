import FoundationEssentials

extension DaemonEvent {
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
}
