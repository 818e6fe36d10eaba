/// `shift.resend`: what was queued again for shift `shift`: `samples` positions in
/// `messages` messages with them, `stops`, and whether the shift message (`shift_message`,
/// false while the shift runs); the messages have sequences from `first_sequence` to
/// `last_sequence` (others queued meanwhile, by capture, among them), both null when
/// nothing was queued.
public struct ShiftResendResult: Sendable, Hashable, Codable {
  public var shift: Int64
  public var samples: Int
  public var stops: Int
  public var shiftMessage: Bool
  public var messages: Int
  @ExplicitNull public var firstSequence: Int64?
  @ExplicitNull public var lastSequence: Int64?

  public init(
    shift: Int64, samples: Int, stops: Int, shiftMessage: Bool, messages: Int, firstSequence: Int64?,
    lastSequence: Int64?
  ) {
    self.shift = shift
    self.samples = samples
    self.stops = stops
    self.shiftMessage = shiftMessage
    self.messages = messages
    self.firstSequence = firstSequence
    self.lastSequence = lastSequence
  }

  enum CodingKeys: String, CodingKey {
    case shift, samples, stops, messages
    case shiftMessage = "shift_message"
    case firstSequence = "first_sequence"
    case lastSequence = "last_sequence"
  }

  /// What was queued, in words the journal and `dashpilotctl` both say: "812 samples, 2
  /// stops and the shift message queued again, in 4 messages (sequences 31-34)", or
  /// "nothing to queue again (0 samples and 0 stops)".
  public var summary: String {
    let samples = "\(samples) sample\(samples == 1 ? "" : "s")"
    let stops = "\(stops) stop\(stops == 1 ? "" : "s")"
    let what = shiftMessage ? "\(samples), \(stops) and the shift message" : "\(samples) and \(stops)"
    guard let first = firstSequence, let last = lastSequence else { return "nothing to queue again (\(what))" }
    return "\(what) queued again, in \(messages) message\(messages == 1 ? "" : "s") (sequences \(first)-\(last))"
  }
}
