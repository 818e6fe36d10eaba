import Capture
import DashPilotCore
import Foundation
import Guidance
import RouteFiles

/// `dashpilotctl replay FILE [--route FILE] [--mode driving|walking] [--window START,END]
/// [--units miles|kilometres] [--json]`: the capture pipeline run offline over a gpsd JSON
/// log, no daemon needed.
public enum ReplayCommand {
  public static let usage = """
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

  /// Runs the command with the arguments after the word `replay`; returns the exit status:
  /// 0 done; 1 a file named could not be read or used (the log, or the route: the message
  /// names the file and the problem), or the temporary database failed; 2 usage.
  public static func run(arguments: [String], console: Console) -> Int32 {
    switch ReplayArguments.parse(arguments) {
    case .help:
      console.line(usage)
      return ExitStatus.success.rawValue
    case let .usageError(message):
      console.error("dashpilotctl replay: \(message)\nRun 'dashpilotctl replay --help' for usage.")
      return ExitStatus.usage.rawValue
    case let .run(options):
      var route: ReplayRoute?
      if let path = options.route {
        switch readRoute(path, mode: options.mode) {
        case let .success(read): route = read
        case let .failure(problem):
          console.error("dashpilotctl replay: cannot follow route \(path): \(problem.description)")
          return ExitStatus.failed.rawValue
        }
      }
      let url = URL(fileURLWithPath: options.file)
      var isDirectory: ObjCBool = false
      if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue {
        console.error("dashpilotctl replay: \(options.file) is a directory, not a gpsd JSON log")
        return ExitStatus.failed.rawValue
      }
      let result: ReplayResult
      let showsProgress = isatty(STDERR_FILENO) == 1
      do {
        result = try GPSDLogReplay.replay(
          contentsOf: url, options: GPSDLogReplay.Options(window: options.window, route: route),
          progress: showsProgress
            ? { fraction in printProgress("replaying \(options.file): \(Int(fraction * 100)) %", console) } : nil)
        if showsProgress { printProgress("", console) }
      } catch let failure as ReplayStoreFailure {
        if showsProgress { printProgress("", console) }
        console.error("dashpilotctl replay: the replay's temporary database failed: \(failure.description)")
        return ExitStatus.failed.rawValue
      } catch {
        console.error("dashpilotctl replay: cannot read \(options.file): \(describe(error))")
        return ExitStatus.failed.rawValue
      }
      let report = ReplayReport(result: result, unit: options.unit)
      console.line(options.json ? report.json : report.text)
      return ExitStatus.success.rawValue
    }
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
