/// A mistake on the command line; the message names it, and the help for the command
/// it was about is pointed to.
public struct UsageError: Error, Sendable, Hashable, CustomStringConvertible {
  public var message: String
  public var command: String?

  public init(_ message: String, command: String? = nil) {
    self.message = message
    self.command = command
  }

  public var description: String { message }
}
