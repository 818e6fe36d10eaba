import FoundationEssentials

/// `shift.resend`: the shift (`id`) whose samples, stops and shift message the fleet gets
/// again, and optionally the time range (`since`, `until`, UTC, both ends included) of the
/// samples and stops sent.
public struct ShiftResendArguments: Sendable, Hashable {
  public var id: Int64
  public var since: Date?
  public var until: Date?

  public init(id: Int64, since: Date? = nil, until: Date? = nil) {
    self.id = id
    self.since = since
    self.until = until
  }
}
