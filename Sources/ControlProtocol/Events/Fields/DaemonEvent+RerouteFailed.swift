import FoundationEssentials

extension DaemonEvent {
  /// A reroute got no route. A transient failure is asked again at `retry_at`; a permanent
  /// one (`permanent` true, no `retry_at`) ends this departure's rerouting.
  public struct RerouteFailed: Sendable, Hashable, Codable {
    public var failure: String
    public var detail: String
    public var permanent: Bool
    @EventTime public var retryAt: Date?
    @EventTime public var at: Date

    public init(failure: String, detail: String, permanent: Bool, retryAt: Date?, at: Date) {
      self.failure = failure
      self.detail = detail
      self.permanent = permanent
      self.retryAt = retryAt
      self.at = at
    }

    private enum CodingKeys: String, CodingKey {
      case failure, detail, permanent, at
      case retryAt = "retry_at"
    }
  }
}
