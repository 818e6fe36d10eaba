extension DaemonEvent {
  /// `{}`: the type says it all.
  public struct NoFields: Sendable, Hashable, Codable {
    public init() {}
  }
}
