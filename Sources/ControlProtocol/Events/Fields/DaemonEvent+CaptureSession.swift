extension DaemonEvent {
  /// A capture session starting or ending. `shift` is absent for the sessions a restart
  /// ends (the new process ends them before it knows of any shift), and for a session while
  /// no shift is open (`[Shift] Start=movement` captures to see the vehicle move); `reason`
  /// is a sentence.
  public struct CaptureSession: Sendable, Hashable, Codable {
    public var session: String
    public var shift: Int64?
    public var reason: String

    public init(session: String, shift: Int64?, reason: String) {
      self.session = session
      self.shift = shift
      self.reason = reason
    }
  }
}
