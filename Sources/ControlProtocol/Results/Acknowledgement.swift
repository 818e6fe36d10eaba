/// `route clear`, `events` and other answers that only confirm.
public struct Acknowledgement: Sendable, Hashable, Codable {
  public var message: String
  public init(message: String) { self.message = message }
}
