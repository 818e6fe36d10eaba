extension DaemonEvent {
  /// `{"reason":"..."}`: a signal's name, or what gpsd's connection said.
  public struct Reason: Sendable, Hashable, Codable {
    public var reason: String

    public init(_ reason: String) {
      self.reason = reason
    }
  }
}
