import ControlProtocol
import DashPilotCore
import FoundationEssentials
import PlatformSupport
import ReportBuilding
import ShiftReport

#if canImport(Glibc)
  import Glibc
#endif

struct ReportCommand: CLICommand {
  static let words = ["report"]
  static let summary = "Draw a shift as one SVG file: where it was recorded, where capture was lost, and why."
  static let help = """
    USAGE: dashpilotctl report ID [-o FILE] [--route FILE [--mode driving|walking]] [--json]

    Writes shift ID as one self-contained SVG (default shift-ID.svg here; -o - writes
    it to standard output): each unbroken stretch of capture a solid line, each capture
    gap a thin dashed straight line labelled "not counted" with its times, the start and
    the end marked, a scale bar and a north arrow, and beneath it the shift's figure,
    counts, gaps and sentences as `shift show` gives them. Each stop is a diamond with
    a black badge giving its number and time stood ("1 · 5 min"), listed beneath as
    `shift show` lists it; each job visited a triangle labelled with the stop that
    visited it ("job A1 · stop 1"), the jobs listed in order; the places around the
    drive (never a private one) outlined and named. No map is fetched and nothing
    outside the file is needed to open it; it reads in greyscale.

    --route FILE draws the route in FILE (GPX or GeoJSON) underneath in grey and marks
    each moment guidance confirms the car had left it, judged over the shift's recorded
    positions with the --mode thresholds (default driving). With --json, prints what was
    written (path, bytes, stretches, gaps, departures, stops, jobs visited, places)
    instead of a sentence.
    """

  var id: Int64
  var output: String?
  var routePath: String?
  var mode: WireTravelMode

  init(arguments: inout ArgumentCursor) throws(UsageError) {
    let short = try arguments.option("-o", value: "a FILE")
    let long = try arguments.option("--output", value: "a FILE")
    output = short ?? long
    routePath = try arguments.option("--route", value: "a FILE")
    mode = try parseMode(try arguments.option("--mode"), command: Self.name)
    id = try arguments.shiftID(for: Self.name)
    try arguments.finish()
  }

  func run(_ context: CommandContext) -> ExitStatus {
    var route: RouteFileHooks.Route?
    if let routePath {
      do {
        route = try context.hooks.readRoute(URL(fileURLWithPath: routePath))
      } catch {
        return context.report(.failed("cannot read the route \(routePath): \(error)"))
      }
    }
    let progress = Progress(console: context.console)
    return context.withClient { client throws(ClientFailure) in
      // A long shift takes the daemon a moment to read and walk: the default wait is short.
      client.setTimeout(300)
      progress.say("report: reading shift #\(id) from dashpilotd")
      let arguments = ReportArguments(id: id, mode: mode, route: route?.coordinates ?? [])
      let result = try client.request(
        arguments, inPartsOf: RouteLoadCommand.coordinatesPerPart, assembling: ReportResult.self)
      progress.say("report: drawing \(result.stretches.reduce(0) { $0 + $1.count }) positions")
      var builder = ReportContentBuilder(result: result)
      if let route, let routePath {
        builder.route = route.coordinates.map { GeoCoordinate(latitude: $0.lat, longitude: $0.lon) }
        builder.routeName = "\(URL(fileURLWithPath: routePath).lastPathComponent) (\(mode.rawValue))"
      }
      let content = builder.content
      let svg = ShiftReportSVG.render(content)
      progress.say("")
      return try write(svg, result, gapsDrawn: content.drawnGaps.count, context)
    }
  }

  private func write(
    _ svg: String, _ result: ReportResult, gapsDrawn: Int, _ context: CommandContext
  ) throws(ClientFailure) -> ExitStatus {
    let path = output ?? "shift-\(id).svg"
    if path == "-" {
      context.console.writeOutput(svg)
      return .success
    }
    let data = Data(svg.utf8)
    do {
      try data.write(to: URL(fileURLWithPath: path), options: .atomic)
    } catch {
      throw .failed("cannot write \(path): \(SystemErrorText.reason(error))")
    }
    if context.options.json {
      context.printJSON(
        ReportWritten(
          path: path, bytes: data.count, stretches: result.detail.shift.distance.segments,
          gaps: result.detail.gaps.count, gapsDrawn: gapsDrawn, departures: result.offRoute?.count,
          stops: result.detail.stops.count, jobsVisited: result.detail.jobs.filter { $0.visit != nil }.count,
          places: result.places.count))
    } else {
      context.console.line("Wrote shift #\(id)'s report to \(path) (\(Self.size(data.count))).")
    }
    return .success
  }

  /// "41 KB", "1.2 MB".
  static func size(_ bytes: Int) -> String {
    bytes < 1_000_000
      ? "\(max(1, (bytes + 500) / 1000)) KB" : "\(FixedDecimal.text(Double(bytes) / 1e6, digits: 1) ?? "?") MB"
  }

  /// What `--json` prints: where the report went and what it drew.
  struct ReportWritten: Encodable {
    var path: String
    var bytes: Int
    var stretches: Int
    var gaps: Int
    var gapsDrawn: Int
    var departures: Int?
    var stops: Int
    var jobsVisited: Int
    var places: Int

    enum CodingKeys: String, CodingKey {
      case path, bytes, stretches, gaps, departures, stops, places
      case gapsDrawn = "gaps_drawn"
      case jobsVisited = "jobs_visited"
    }
  }

  /// One line rewritten in place on a terminal's standard error; nothing elsewhere.
  struct Progress {
    let console: Console
    let isTerminal = isatty(STDERR_FILENO) == 1

    func say(_ text: String) {
      guard isTerminal else { return }
      console.writeError("\r\u{1B}[K\(text)")
    }
  }
}
