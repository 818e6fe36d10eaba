import ControlProtocol

/// Why a request did not succeed, mapped to an exit status.
public enum ClientFailure: Error, Sendable {
  /// No daemon answers: the sentence says how to start it or which group to join.
  case unreachable(String)
  /// The daemon answered with an error.
  case refused(ControlError)
  /// The daemon answered something this client cannot read, or the client could not do
  /// its own part (reading a file).
  case failed(String)

  public var exitStatus: ExitStatus {
    switch self {
    case .unreachable: .unreachable
    case .refused, .failed: .failed
    }
  }

  public var message: String {
    switch self {
    case .unreachable(let sentence): sentence
    case .refused(let error): "dashpilotd refused: \(error.message) (\(error.code.rawValue))"
    case .failed(let sentence): sentence
    }
  }
}
