import ControlProtocol
import DashPilotCore
import FoundationEssentials
import PlatformSupport

struct JobsImportCommand: CLICommand {
  static let words = ["jobs", "import"]
  static let summary = "Queue a day's jobs from a CSV or GeoJSON file, all or none."
  static let help = """
    USAGE: dashpilotctl jobs import FILE [--json]

    Queues the jobs in FILE after those the car has, in the file's order, all or none
    (job.assign_all, as the office sends a day's manifest): at most 200, the queue's
    bound. FILE is CSV with a header line naming its columns, id, name, lat and lon,
    and any of radius_m (metres, 10 to 1000; default 50), window_start and window_end
    (UTC, such as 2026-12-02T09:00:00Z) and note; a field with a comma is quoted. Or
    GeoJSON: a FeatureCollection of Points whose properties are id, name and the same
    optional ones. The file is checked whole first: every line with a mistake is named
    with its field, and nothing is sent. A job sent before as it is changes nothing;
    one under a used id with other content refuses the list. Only root, the daemon's
    user and members of the socket group may import jobs.
    """

  /// Jobs per request: one request line holds at most 64 KiB, and a job with every text
  /// at its longest, escaped, is under 4 KiB.
  static let jobsPerPart = 16

  var path: String

  init(arguments: inout ArgumentCursor) throws(UsageError) {
    path = try arguments.requiredPositional("the jobs FILE")
    try arguments.finish()
  }

  func run(_ context: CommandContext) -> ExitStatus {
    let data: Data
    do {
      data = try Data(contentsOf: URL(fileURLWithPath: path))
    } catch {
      return context.report(.failed("cannot read \(path): \(SystemErrorText.reason(error))"))
    }
    let entries: [JobsFile.Entry]
    switch JobsFile.jobs(from: data, file: path) {
    case .success(let read): entries = read
    case .failure(let problems):
      for problem in problems.list { context.console.error("dashpilotctl: \(problem)") }
      let count = problems.list.count
      return context.report(
        .failed("\(path) was not imported: \(count) problem\(count == 1 ? "" : "s"); no job was sent"))
    }
    return context.withClient { client throws(ClientFailure) in
      let result = try client.request(
        JobAssignAllArguments(jobs: entries.map(\.job)), inPartsOf: Self.jobsPerPart, as: JobsAssignedResult.self)
      if context.options.json {
        context.printJSON(result)
      } else {
        let before = result.unchanged == 0 ? "" : " (\(result.unchanged) assigned before as they are)"
        context.console.line(
          "Queued \(result.assigned) of \(entries.count) jobs from \(path)\(before); \(result.queueLength) not done.")
      }
      return .success
    }
  }
}
