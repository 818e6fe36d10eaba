extension DaemonEvent {
  /// A write to the store failed; `shift` is absent when none was open.
  public struct StoreFailure: Sendable, Hashable, Codable {
    public var shift: Int64?
    public var reason: String

    public init(shift: Int64?, reason: String) {
      self.shift = shift
      self.reason = reason
    }
  }
}
