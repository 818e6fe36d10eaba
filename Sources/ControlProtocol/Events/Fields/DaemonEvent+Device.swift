extension DaemonEvent {
  /// The receiver gpsd reports fixes from.
  public struct Device: Sendable, Hashable, Codable {
    public var device: String

    public init(device: String) {
      self.device = device
    }
  }
}
