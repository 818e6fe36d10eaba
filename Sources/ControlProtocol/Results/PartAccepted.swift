/// The answer to every part of a multi-part `import`, `route load` or `report` but the
/// last.
public struct PartAccepted: Sendable, Hashable, Codable {
  /// Points received so far on this connection for this command.
  public var received: Int
  public var more: Bool

  public init(received: Int, more: Bool = true) {
    self.received = received
    self.more = more
  }
}
