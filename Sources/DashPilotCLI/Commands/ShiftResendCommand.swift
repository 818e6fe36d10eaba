import ControlProtocol
import DashPilotCore
import PlatformSupport

struct ShiftResendCommand: CLICommand {
  static let words = ["shift", "resend"]
  static let summary = "Queue a shift's samples, stops and shift message again for the fleet."
  static let help = """
    USAGE: dashpilotctl shift resend ID [--since TIME] [--until TIME] [--json]

    Queues shift ID again for the fleet's broker, as new messages through the outbox
    (shift.resend): its samples, its stops and, once it has ended, its shift message.
    For an office that missed part of a shift: a box offline longer than [Uplink]
    OutboxBound= holds drops its oldest messages, and the office sees a hole in their
    sequence. Each sample is sent as it was the first time, so the office keeps one copy
    of each (by vehicle, shift and time). --since and --until (UTC times such as
    2026-11-01T08:00:00Z, or a day, from its start; both included) send only the
    samples in that time and the stops that overlap it. Needs the [Uplink] section;
    only root, the daemon's user and members of the socket group may resend.
    """

  var arguments: ShiftResendArguments

  init(arguments: inout ArgumentCursor) throws(UsageError) {
    let since = try arguments.option("--since", value: "a time").map { text throws(UsageError) in
      try ArgumentCursor.time(text, option: "--since", command: Self.name)
    }
    let until = try arguments.option("--until", value: "a time").map { text throws(UsageError) in
      try ArgumentCursor.time(text, option: "--until", command: Self.name)
    }
    if let since, let until, until < since {
      throw UsageError("--until must not come before --since", command: Self.name)
    }
    self.arguments = ShiftResendArguments(id: try arguments.shiftID(for: Self.name), since: since, until: until)
    try arguments.finish()
  }

  func run(_ context: CommandContext) -> ExitStatus {
    context.withClient { client throws(ClientFailure) in
      let result = try client.request(.shiftResend(arguments), as: ShiftResendResult.self)
      if context.options.json {
        context.printJSON(result)
      } else {
        context.console.line("Shift #\(result.shift): \(result.summary).")
      }
      return .success
    }
  }
}
