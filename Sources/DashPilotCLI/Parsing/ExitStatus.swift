/// dashpilotctl's exit statuses, as DESIGN.md fixes them.
public enum ExitStatus: Int32, Sendable {
  case success = 0
  /// The daemon refused or failed the request (or the client could not do its part).
  case failed = 1
  case usage = 2
  /// No daemon answers on the socket.
  case unreachable = 3
}
