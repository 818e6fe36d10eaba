extension DaemonEvent {
  /// A shift still open when the daemon started: capture resumes in a new session.
  public struct ShiftResumed: Sendable, Hashable, Codable {
    public var shift: Int64
    public static let reason = "daemon restarted"

    public init(shift: Int64) {
      self.shift = shift
    }
  }
}
