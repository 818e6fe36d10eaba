import FoundationEssentials

/// gpsd in `status`: whether the daemon is connected, the receiver and its latest fix.
public struct GPSDSection: Sendable, Hashable, Codable {
  /// HOST:PORT the daemon reads from.
  public var address: String
  public var connected: Bool
  /// The receiver's path as gpsd names it (`/dev/ttyACM0`), null when none is active.
  @ExplicitNull public var device: String?
  /// "none", "2d" or "3d"; null before the first report.
  @ExplicitNull public var fixMode: String?
  /// Horizontal error of the latest fix in metres, null when unknown.
  @ExplicitNull public var accuracyMetres: Double?
  @ExplicitNull public var lastFixAt: Date?

  public init(
    address: String, connected: Bool = false, device: String? = nil, fixMode: String? = nil,
    accuracyMetres: Double? = nil, lastFixAt: Date? = nil
  ) {
    self.address = address
    self.connected = connected
    self.device = device
    self.fixMode = fixMode
    self.accuracyMetres = accuracyMetres
    self.lastFixAt = lastFixAt
  }

  enum CodingKeys: String, CodingKey {
    case address, connected, device
    case fixMode = "fix_mode"
    case accuracyMetres = "accuracy_m"
    case lastFixAt = "last_fix_at"
  }
}
