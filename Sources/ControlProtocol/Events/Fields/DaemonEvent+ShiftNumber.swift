extension DaemonEvent {
  /// The shift an event is about.
  public struct ShiftNumber: Sendable, Hashable, Codable {
    public var shift: Int64

    public init(shift: Int64) {
      self.shift = shift
    }
  }
}
