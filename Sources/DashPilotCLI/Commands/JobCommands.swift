import ControlProtocol
import DashPilotCore
import FoundationEssentials
import PlatformSupport

struct JobsCommand: CLICommand {
  static let words = ["jobs"]
  static let summary = "Show the jobs queued for the car and those done in this shift."
  static let help = """
    USAGE: dashpilotctl jobs [--json]

    Lists the jobs the office assigned (job.assign) that are not done yet, in the order
    they came, each with where it is and whether the car has arrived there; then the jobs
    done in this shift (between shifts, the last shift any job was done in): those
    visited, in the order the car arrived, with how long it stood and how far from the
    destination, and those not reached by the end of the shift.
    """

  init(arguments: inout ArgumentCursor) throws(UsageError) {
    try arguments.finish()
  }

  func run(_ context: CommandContext) -> ExitStatus {
    context.withClient { client throws(ClientFailure) in
      let result = try client.request(.jobList, as: JobsResult.self)
      if context.options.json {
        context.printJSON(result)
      } else {
        for line in JobLines.list(result) { context.console.line(line) }
      }
      return .success
    }
  }
}

struct JobAssignCommand: CLICommand {
  static let words = ["jobs", "assign"]
  static let summary = "Queue a job: a named stop to make at LAT,LON."
  static let help = """
    USAGE: dashpilotctl jobs assign ID NAME LAT,LON [--radius METRES]
                                    [--window FROM/TO] [--note TEXT] [--json]

    Queues job ID after the jobs the car has: NAME is what the driver reads and hears,
    LAT,LON the destination in degrees. The job is arrived when a stop (at least
    [Stops] MinimumStop= long) begins within --radius metres of it (default 50, from 10
    to 1000) and visited when that stop ends; driving through is no visit. --window
    takes the customer's promised time as two UTC times, such as
    2026-12-02T09:00:00Z/2026-12-02T11:00:00Z. An id is taken once: the same job sent
    again changes nothing, and a different job under a used id is refused. Only root,
    the daemon's user and members of the socket group may assign jobs.
    """

  var job: DeliveryJob

  init(arguments: inout ArgumentCursor) throws(UsageError) {
    let radius = try arguments.option("--radius", value: "METRES")
    let window = try arguments.option("--window", value: "FROM/TO")
    let note = try arguments.option("--note", value: "TEXT")
    let id = try arguments.requiredPositional("the job's ID")
    let name = try arguments.requiredPositional("the job's NAME")
    let at = try parseCoordinate(try arguments.requiredPositional("the destination LAT,LON"), command: Self.name)
    try arguments.finish()
    job = DeliveryJob(id: id, name: name, destination: GeoCoordinate(latitude: at.lat, longitude: at.lon), note: note)
    if let radius {
      guard let metres = Double(radius), DeliveryJob.radiusRange.contains(metres) else {
        throw UsageError("--radius must be metres from 10 to 1000, not \"\(radius)\"", command: Self.name)
      }
      job.radius = metres
    }
    if let window {
      let ends = window.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
      guard ends.count == 2, let from = UTCTimestamp.parse(ends[0]), let to = UTCTimestamp.parse(ends[1]), to > from
      else {
        throw UsageError(
          "--window must be FROM/TO in UTC, FROM before TO, such as 2026-12-02T09:00:00Z/2026-12-02T11:00:00Z",
          command: Self.name)
      }
      job.window = DateInterval(start: from, end: to)
    }
  }

  func run(_ context: CommandContext) -> ExitStatus {
    context.withClient { client throws(ClientFailure) in
      let result = try client.request(.jobAssign(job), as: JobResult.self)
      if context.options.json {
        context.printJSON(result)
      } else {
        let said = result.changed ? "queued" : "already assigned, \(result.job.state.replacing("_", with: " "))"
        context.console.line("Job \(result.job.id) (\(result.job.name)) \(said).")
      }
      return .success
    }
  }
}

struct JobCancelCommand: CLICommand {
  static let words = ["jobs", "cancel"]
  static let summary = "Take job ID off the queue."
  static let help = """
    USAGE: dashpilotctl jobs cancel ID [--json]

    Takes job ID off the queue: the car is no longer expected there. A job already
    visited, or not reached by the end of its shift, stays as it was told. Only root,
    the daemon's user and members of the socket group may cancel jobs.
    """

  var id: String

  init(arguments: inout ArgumentCursor) throws(UsageError) {
    id = try arguments.requiredPositional("the job's ID")
    try arguments.finish()
  }

  func run(_ context: CommandContext) -> ExitStatus {
    context.withClient { client throws(ClientFailure) in
      let result = try client.request(.jobCancel(id: id), as: JobResult.self)
      if context.options.json {
        context.printJSON(result)
      } else {
        context.console.line("Job \(result.job.id) (\(result.job.name)) cancelled.")
      }
      return .success
    }
  }
}
