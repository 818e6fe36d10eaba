extension DaemonEvent {
  /// `navigate` got no route: the failure's class and the provider's words.
  public struct NavigateFailed: Sendable, Hashable, Codable {
    public var failure: String
    public var detail: String

    public init(failure: String, detail: String) {
      self.failure = failure
      self.detail = detail
    }
  }
}
