extension DaemonEvent {
  /// The speech command failed (said once, not once per line).
  public struct SpeechFailed: Sendable, Hashable, Codable {
    public var problem: String
    public static let reason = "speech_failed"

    public init(problem: String) {
      self.problem = problem
    }
  }
}
