import Capture
import DashPilotCore
import Foundation
import Guidance
import PlatformSupport
import RouteFiles

/// `dashpilotctl replay FILE`: the capture pipeline run offline over a gpsd JSON log, no
/// daemon needed (it takes `--socket` as every command does, and ignores it).
struct ReplayCommand: CLICommand {
  static let words = ["replay"]
  static let summary = "Replay a gpsd JSON log offline through the same pipeline (no daemon)."
  static let help = """
    USAGE: dashpilotctl replay FILE [--route FILE] [--mode driving|walking]
                               [--window START,END] [--units miles|kilometres] [--json]

    Runs a gpsd JSON log (gpspipe -w output) through the same capture filter and
    capture sessions as dashpilotd, without a daemon, and reports what would be recorded.
    Lines that are not gpsd JSON (comments, NMEA) are skipped and counted.

    OPTIONS:
      --route FILE          Follow this route (GPX or GeoJSON) with the guidance engine
                            and report when it joined, left, came back and arrived.
                            Replay has no routing provider, so it never reroutes.
      --mode MODE           driving (default) or walking, for guidance.
      --window START,END    The shift's window, ISO-8601 UTC (2024-05-01T08:00:00Z): a
                            recording that starts late or stops early shows a gap there.
      --units UNITS         miles (default) or kilometres.
      --json                Print one JSON object instead of the report.
      -h, --help            Show this help.
    """

  var file: String
  var route: String?
  var mode: TravelMode
  var window: DateInterval?
  var unit: DistanceUnit

  init(arguments: inout ArgumentCursor) throws(UsageError) {
    route = try arguments.option("--route", value: "a FILE")
    // The socket's two modes are guidance's two, by name.
    mode = TravelMode(rawValue: try parseMode(try arguments.option("--mode"), command: Self.name).rawValue) ?? .driving
    window = try arguments.option("--window", value: "START,END").map { (text) throws(UsageError) in
      try Self.window(text)
    }
    if let text = try arguments.option("--units") {
      guard let unit = DistanceUnit(name: text) else {
        throw UsageError("--units must be miles or kilometres, not \"\(text)\"", command: Self.name)
      }
      self.unit = unit
    } else {
      unit = .miles
    }
    file = try arguments.requiredPositional("the gpsd JSON log FILE")
    try arguments.finish()
  }

  /// `START,END`, each ISO-8601 UTC as gpsd writes it (`2024-05-01T08:00:00Z`).
  static func window(_ text: String) throws(UsageError) -> DateInterval {
    let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingSpacesAndTabs }
    guard parts.count == 2 else { throw UsageError("--window must be START,END (got '\(text)')", command: name) }
    guard let start = GPSDLogReplay.parseInstant(parts[0]) else {
      throw UsageError(
        "--window start '\(parts[0])' is not an ISO-8601 UTC time such as 2024-05-01T08:00:00Z", command: name)
    }
    guard let end = GPSDLogReplay.parseInstant(parts[1]) else {
      throw UsageError(
        "--window end '\(parts[1])' is not an ISO-8601 UTC time such as 2024-05-01T17:00:00Z", command: name)
    }
    guard end >= start else { throw UsageError("--window ends before it starts", command: name) }
    return DateInterval(start: start, end: end)
  }

  /// Exit status: 0 done; 1 a file named could not be read or used (the log, or the
  /// route: the message names the file and the problem), or the temporary database failed.
  func run(_ context: CommandContext) -> ExitStatus {
    let console = context.console
    var replayRoute: ReplayRoute?
    if let path = route {
      switch Self.readRoute(path, mode: mode) {
      case let .success(read): replayRoute = read
      case let .failure(problem):
        console.error("dashpilotctl replay: cannot follow route \(path): \(problem.description)")
        return .failed
      }
    }
    let url = URL(fileURLWithPath: file)
    var isDirectory: ObjCBool = false
    if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue {
      console.error("dashpilotctl replay: \(file) is a directory, not a gpsd JSON log")
      return .failed
    }
    let result: ReplayResult
    let showsProgress = isatty(STDERR_FILENO) == 1
    do {
      result = try GPSDLogReplay.replay(
        contentsOf: url, options: GPSDLogReplay.Options(window: window, route: replayRoute),
        progress: showsProgress
          ? { fraction in Self.printProgress("replaying \(file): \(Int(fraction * 100)) %", console) } : nil)
      if showsProgress { Self.printProgress("", console) }
    } catch let failure as ReplayStoreFailure {
      if showsProgress { Self.printProgress("", console) }
      console.error("dashpilotctl replay: the replay's temporary database failed: \(failure.description)")
      return .failed
    } catch {
      console.error("dashpilotctl replay: cannot read \(file): \(Self.describe(error))")
      return .failed
    }
    let report = ReplayReport(result: result, unit: unit)
    console.line(context.options.json ? report.json : report.text)
    return .success
  }

  /// A problem with the route file, in words that follow its name.
  struct RouteProblem: Error, CustomStringConvertible {
    var description: String
  }

  /// Reads the route with RouteFiles and checks it can be followed; Capture receives only
  /// the guidance route, so it never links the XML parser.
  static func readRoute(_ path: String, mode: TravelMode) -> Result<ReplayRoute, RouteProblem> {
    let coordinates: [GeoCoordinate]
    do {
      coordinates = try RouteFile.readRoute(atPath: path)
    } catch {
      return .failure(RouteProblem(description: RouteFileHooks.problem(of: error)))
    }
    do {
      return .success(ReplayRoute(route: try GuidanceRoute(coordinates), mode: mode))
    } catch {
      return .failure(RouteProblem(description: error.description))
    }
  }

  static func describe(_ error: Error) -> String {
    let nsError = error as NSError
    if nsError.domain == NSCocoaErrorDomain {
      switch nsError.code {
      case NSFileReadNoSuchFileError: return "no such file"
      case NSFileReadNoPermissionError: return "permission denied"
      default: break
      }
    }
    return nsError.localizedDescription
  }

  /// Rewrites the progress line on the terminal (an empty text clears it).
  static func printProgress(_ text: String, _ console: Console) {
    console.writeError("\r\u{1B}[K\(text)")
  }
}
