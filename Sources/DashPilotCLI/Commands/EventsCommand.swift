import ControlProtocol
import FoundationEssentials
import PlatformSupport

struct EventsCommand: CLICommand {
  static let words = ["events"]
  static let summary = "Follow what the daemon does, one line per event, until interrupted."
  static let help = """
    USAGE: dashpilotctl events [--json]

    Prints each event as it happens: capture sessions starting and ending, shifts,
    gpsd connecting and disconnecting, guidance leaving and rejoining the route, the
    daemon stopping. With --json, prints the daemon's JSON lines as they arrive. Ends
    with Ctrl-C, or by itself when the daemon stops.
    """

  init(arguments: inout ArgumentCursor) throws(UsageError) { try arguments.finish() }

  func run(_ context: CommandContext) -> ExitStatus {
    context.withClient { client throws(ClientFailure) in
      _ = try client.request(.events, as: Acknowledgement.self)
      client.setTimeout(nil)
      var lastType: String?
      while let line = try client.readServerLine() {
        guard case .event(let event) = line else { continue }
        lastType = event.type
        if context.options.json {
          context.console.writeOutput(String(decoding: event.encodedLine, as: UTF8.self))
        } else {
          context.console.line(
            "\(HumanFormat.format(event.time, "%H:%M:%S"))  \(context.console.styled(event.type, .dim))  \(event.message)"
          )
        }
      }
      if lastType == "daemon.stopping" { return .success }
      throw .unreachable("dashpilotd closed the event stream; it may have stopped (see journalctl -u dashpilotd)")
    }
  }
}
