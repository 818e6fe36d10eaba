import ControlProtocol
import DashPilotCore
import PlatformSupport

struct ShiftStartCommand: CLICommand {
  static let words = ["shift", "start"]
  static let summary = "Start a shift: its mileage is measured from the fixes recorded from now on."
  static let help = """
    USAGE: dashpilotctl shift start [--json]

    Opens a shift. Fixes kept from now on belong to it, and status shows its mileage
    as it grows. Only root, the daemon's user and members of the socket group may start
    a shift.
    """

  init(arguments: inout ArgumentCursor) throws(UsageError) { try arguments.finish() }

  func run(_ context: CommandContext) -> ExitStatus {
    context.withClient { client throws(ClientFailure) in
      let shift = try client.request(.shiftStart, as: ShiftSummary.self)
      if context.options.json {
        context.printJSON(shift)
      } else {
        context.console.line("Shift #\(shift.id) started at \(HumanFormat.clock(shift.startedAt)).")
      }
      return .success
    }
  }
}

struct ShiftEndCommand: CLICommand {
  static let words = ["shift", "end"]
  static let summary = "End the open shift and show its recorded mileage."
  static let help = """
    USAGE: dashpilotctl shift end [--json]

    Closes the open shift and prints its figure, measured from its stored fixes within
    the shift's window ("12.4 mi recorded · partial route"), with the counts behind it.
    Only root, the daemon's user and members of the socket group may end a shift.
    """

  init(arguments: inout ArgumentCursor) throws(UsageError) { try arguments.finish() }

  func run(_ context: CommandContext) -> ExitStatus {
    context.withClient { client throws(ClientFailure) in
      let shift = try client.request(.shiftEnd, as: ShiftSummary.self)
      if context.options.json {
        context.printJSON(shift)
      } else {
        let renderer = ShiftRenderer(console: context.console)
        context.console.line("Shift #\(shift.id) ended: \(renderer.summary(shift))")
        for line in renderer.details(shift, indent: "  ") { context.console.line(line) }
      }
      return .success
    }
  }
}

struct ShiftsCommand: CLICommand {
  static let words = ["shifts"]
  static let summary = "List shifts, newest first, a page at a time, each with its recorded mileage."
  static let help = """
    USAGE: dashpilotctl shifts [--limit N] [--before ID] [--since DAY] [--until DAY] [--json]

    Lists shifts, newest first: number, start and end, the recorded mileage in the
    words status uses ("12.4 mi recorded · partial route"), and how each started and
    ended (by hand, on movement, after a stop, when capture was lost); beneath them,
    what the box keeps ([Store] KeepDays= and the free-space floor, dashpilot.conf(5)).

    A box records for years, so shifts come a page at a time: the newest 20, or --limit
    N (at most 1000). When older shifts match, a line beneath them says how to ask for
    the next page (--before ID lists the shifts older than shift ID). --since and --until
    keep the shifts that started in that time (a day such as 2026-11-01, from its start
    in UTC, or a UTC time such as 2026-11-01T08:00:00Z; --until is not included).
    """

  var page = ShiftsArguments()

  init(arguments: inout ArgumentCursor) throws(UsageError) {
    if let text = try arguments.option("--limit", value: "a number of shifts") {
      guard let value = Int(text), (1...ShiftsArguments.maximumLimit).contains(value) else {
        throw UsageError("--limit needs a whole number from 1 to \(ShiftsArguments.maximumLimit)", command: Self.name)
      }
      page.limit = value
    }
    if let text = try arguments.option("--before", value: "a shift ID") {
      page.before = try ArgumentCursor.shiftID(text, command: Self.name)
    }
    if let text = try arguments.option("--since", value: "a day") {
      page.since = try ArgumentCursor.time(text, option: "--since", command: Self.name)
    }
    if let text = try arguments.option("--until", value: "a day") {
      page.until = try ArgumentCursor.time(text, option: "--until", command: Self.name)
    }
    if let since = page.since, let until = page.until, until <= since {
      throw UsageError("--until must come after --since", command: Self.name)
    }
    try arguments.finish()
  }

  func run(_ context: CommandContext) -> ExitStatus {
    context.withClient { client throws(ClientFailure) in
      let result = try client.request(.shifts(page), as: ShiftsResult.self)
      if context.options.json {
        context.printJSON(result)
      } else if result.shifts.isEmpty {
        context.console.line(
          page.before == nil && page.since == nil && page.until == nil
            ? "No shifts recorded yet. One starts when the vehicle drives off ([Shift] Start=movement), "
              + "or with `dashpilotctl shift start`."
            : "No shifts match.")
      } else {
        let renderer = ShiftRenderer(console: context.console)
        for shift in result.shifts { context.console.line(renderer.row(shift)) }
        if let next = result.nextBefore { context.console.line("Older shifts: \(nextPage(before: next))") }
      }
      if !context.options.json, let kept = result.kept { context.console.line(kept) }
      return .success
    }
  }

  /// The command that lists the next page: this one's options, older than `before`.
  func nextPage(before: Int64) -> String {
    var words = ["dashpilotctl", "shifts", "--before", String(before)]
    if page.limit != ShiftsArguments.defaultLimit { words += ["--limit", String(page.limit)] }
    if let since = page.since.flatMap(UTCTimestamp.string) { words += ["--since", since] }
    if let until = page.until.flatMap(UTCTimestamp.string) { words += ["--until", until] }
    return words.joined(separator: " ")
  }
}

struct ShiftShowCommand: CLICommand {
  static let words = ["shift", "show"]
  static let summary = "Show one shift: its mileage, the counts behind it and what qualifies it."
  static let help = """
    USAGE: dashpilotctl shift show ID [--json]

    Shows shift ID: when it ran, its recorded mileage, how many unbroken stretches of
    capture contributed distance, how many capture gaps were excluded, each gap with its
    times, its length and its cause where capture recorded one ("gap 14:02–14:09
    (7 min): receiver /dev/ttyACM0 removed"), and the sentences that qualify a partial
    figure. A gap is never given a distance: nothing is known of what was driven in it.
    Then the stops (standing still with the receiver reporting for [Stops] MinimumStop=,
    2 min by default, or more): each with its times and duration, and what cut it when
    the shift's start or end, the recording's, or a capture gap did ("still stopped when
    the shift ended"); and how the shift's time divided into moving, stopped and not
    captured. `--json` adds them as "stops" and "time". All of it is worked out from the
    stored positions when asked. `dashpilotctl report ID` draws the same shift.
    """

  var id: Int64

  init(arguments: inout ArgumentCursor) throws(UsageError) {
    id = try arguments.shiftID(for: Self.name)
    try arguments.finish()
  }

  func run(_ context: CommandContext) -> ExitStatus {
    context.withClient { client throws(ClientFailure) in
      let detail = try client.request(.shiftShow(id: id), as: ShiftDetail.self)
      if context.options.json {
        context.printJSON(detail)
      } else {
        let renderer = ShiftRenderer(console: context.console)
        context.console.line(renderer.row(detail.shift))
        for line in renderer.details(detail.shift, indent: "  ") { context.console.line(line) }
        for gap in detail.gaps { context.console.line("  " + ShiftRenderer.gapLine(gap)) }
        for sentence in detail.qualifyingSentences { context.console.line("  " + sentence) }
        for line in ShiftRenderer.stopLines(detail, indent: "  ") { context.console.line(line) }
      }
      return .success
    }
  }
}
