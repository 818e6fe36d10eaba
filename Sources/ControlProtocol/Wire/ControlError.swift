/// An error answer's machine-readable code and a sentence for the person reading it.
public struct ControlError: Error, Sendable, Hashable, Codable {
  public enum Code: String, Sendable, Hashable, Codable {
    // The request itself was wrong.
    case notJSON = "not_json"
    case lineTooLong = "line_too_long"
    /// A fleet command over the size a command may have (1 MiB).
    case tooLarge = "too_large"
    case unsupportedVersion = "unsupported_version"
    case badRequest = "bad_request"
    case unknownCommand = "unknown_command"
    case badArguments = "bad_arguments"
    // The daemon would not or could not answer it.
    case permissionDenied = "permission_denied"
    /// A fleet command the box does not take over MQTT (`[Uplink] AllowedCommands=`).
    case notAllowed = "not_allowed"
    /// Its `expires_at` had passed when it arrived: not run.
    case expired = "expired"
    case unavailable = "unavailable"
    case busy = "busy"
    case idleTimeout = "idle_timeout"
    case notFound = "not_found"
    case conflict = "conflict"
    /// A queue the request would grow is at its bound (`job.assign`).
    case queueFull = "queue_full"
    case failed = "failed"
    case shuttingDown = "shutting_down"
  }

  public var code: Code
  public var message: String

  public init(_ code: Code, _ message: String) {
    self.code = code
    self.message = message
  }

  /// Decodes an unknown code from a newer daemon as `failed` rather than not at all, keeping
  /// its message, so the client still shows the sentence.
  public init(from decoder: Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let rawCode = try container.decode(String.self, forKey: .code)
    code = Code(rawValue: rawCode) ?? .failed
    message = try container.decode(String.self, forKey: .message)
  }
}
