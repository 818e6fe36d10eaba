extension DaemonEvent {
  /// A receiver gpsd deactivated; `device` is null when gpsd did not name it.
  public struct DeviceRemoved: Sendable, Hashable, Codable {
    @ExplicitNull public var device: String?
    public static let reason = "device removed"

    public init(device: String?) {
      self.device = device
    }
  }
}
