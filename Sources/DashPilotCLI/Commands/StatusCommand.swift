import ControlProtocol
import PlatformSupport

struct StatusCommand: CLICommand {
  static let words = ["status"]
  static let summary = "Show what the daemon is doing: gpsd, capture, the open shift, guidance, the store."
  static let help = """
    USAGE: dashpilotctl status [--json]

    Shows on one screen: the daemon's version and uptime; the gpsd connection, receiver,
    fix and accuracy; the capture session with the fixes kept and refused (by reason),
    and the stop the vehicle stands in now ("stopped since 10:16 (4 min)"); the open shift with its mileage so far ("4.5 mi recorded · partial route") and the
    counts beneath it; guidance; and the store's health. Anyone who can open the socket
    may ask. With --json, prints the full status object for scripts.
    """

  init(arguments: inout ArgumentCursor) throws(UsageError) { try arguments.finish() }

  func run(_ context: CommandContext) -> ExitStatus {
    context.withClient { client throws(ClientFailure) in
      let status = try client.request(.status, as: StatusResult.self)
      if context.options.json {
        context.printJSON(status)
      } else {
        for line in StatusRenderer(console: context.console).render(status) { context.console.line(line) }
      }
      return .success
    }
  }
}
