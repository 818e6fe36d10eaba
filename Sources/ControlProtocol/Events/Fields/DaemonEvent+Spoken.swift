import FoundationEssentials

extension DaemonEvent {
  /// A line said to the driver (the message is the line): which one, in which language.
  public struct Spoken: Sendable, Hashable, Codable {
    /// "left_route" or "route_not_found".
    public var kind: String
    /// "ko" or "en".
    public var language: String
    @EventTime public var at: Date

    public init(kind: String, language: String, at: Date) {
      self.kind = kind
      self.language = language
      self.at = at
    }
  }
}
