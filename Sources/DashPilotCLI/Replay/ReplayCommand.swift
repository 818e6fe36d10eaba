import Capture
import DashPilotCore
import Foundation
import Guidance

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
      --route FILE          Follow this route with the guidance engine (GPX or GeoJSON).
      --mode MODE           driving (default) or walking, for guidance.
      --window START,END    The shift's window, ISO-8601 UTC (2024-05-01T08:00:00Z): a
                            recording that starts late or stops early shows a gap there.
      --units UNITS         miles (default) or kilometres.
      --json                Print one JSON object instead of the report.
      -h, --help            Show this help.
    """

  struct Options {
    var file: String
    var route: String?
    var mode: TravelMode = .driving
    var window: DateInterval?
    var unit: DistanceUnit = .miles
    var json = false
  }

  enum Parsed {
    case run(Options)
    case help
    case usageError(String)
  }

  /// Runs the command with the arguments after the word `replay`; returns the exit status
  /// (0 done, 1 the file could not be read, 2 usage).
  public static func run(arguments: [String]) -> Int32 {
    switch parse(arguments) {
    case .help:
      print(usage)
      return 0
    case let .usageError(message):
      printError("dashpilotctl replay: \(message)\nRun 'dashpilotctl replay --help' for usage.")
      return 2
    case let .run(options):
      if options.route != nil {
        printError(
          "dashpilotctl replay: --route is not yet supported: the guidance engine is not wired into replay yet")
        return 2
      }
      let url = URL(fileURLWithPath: options.file)
      var isDirectory: ObjCBool = false
      if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue {
        printError("dashpilotctl replay: \(options.file) is a directory, not a gpsd JSON log")
        return 1
      }
      let result: ReplayResult
      do {
        let showsProgress = isatty(STDERR_FILENO) == 1
        result = try GPSDLogReplay.replay(
          contentsOf: url, options: GPSDLogReplay.Options(window: options.window),
          progress: showsProgress
            ? { fraction in printProgress("replaying \(options.file): \(Int(fraction * 100)) %") } : nil)
        if showsProgress { printProgress("") }
      } catch {
        printError("dashpilotctl replay: cannot read \(options.file): \(describe(error))")
        return 1
      }
      let report = ReplayReport(result: result, unit: options.unit)
      print(options.json ? report.json : report.text)
      return 0
    }
  }

  static func parse(_ arguments: [String]) -> Parsed {
    var file: String?
    var options = Options(file: "")
    var index = 0
    func value(for flag: String) -> String? {
      index += 1
      return index < arguments.count ? arguments[index] : nil
    }
    while index < arguments.count {
      let argument = arguments[index]
      switch argument {
      case "-h", "--help": return .help
      case "--json": options.json = true
      case "--route":
        guard let path = value(for: argument) else { return .usageError("--route needs a FILE") }
        options.route = path
      case "--mode":
        guard let text = value(for: argument), let mode = TravelMode(rawValue: text) else {
          return .usageError("--mode must be driving or walking")
        }
        options.mode = mode
      case "--units":
        guard let text = value(for: argument), let unit = DistanceUnit(name: text) else {
          return .usageError("--units must be miles or kilometres")
        }
        options.unit = unit
      case "--window":
        guard let text = value(for: argument) else { return .usageError("--window needs START,END") }
        switch parseWindow(text) {
        case let .success(window): options.window = window
        case let .failure(message): return .usageError(message.text)
        }
      default:
        if argument.hasPrefix("-"), argument != "-" {
          return .usageError("unknown option '\(argument)'")
        }
        guard file == nil else { return .usageError("only one FILE may be given (also got '\(argument)')") }
        file = argument
      }
      index += 1
    }
    guard let file else { return .usageError("a FILE (gpsd JSON log) is required") }
    options.file = file
    return .run(options)
  }

  struct Message: Error { var text: String }

  static func parseWindow(_ text: String) -> Result<DateInterval, Message> {
    let parts = text.split(separator: ",", omittingEmptySubsequences: false)
    guard parts.count == 2 else {
      return .failure(Message(text: "--window must be START,END (got '\(text)')"))
    }
    guard let start = parseInstant(String(parts[0])) else {
      return .failure(Message(text: "--window start '\(parts[0])' is not an ISO-8601 UTC time such as 2024-05-01T08:00:00Z"))
    }
    guard let end = parseInstant(String(parts[1])) else {
      return .failure(Message(text: "--window end '\(parts[1])' is not an ISO-8601 UTC time such as 2024-05-01T17:00:00Z"))
    }
    guard end >= start else { return .failure(Message(text: "--window ends before it starts")) }
    return .success(DateInterval(start: start, end: end))
  }

  /// ISO-8601 UTC, with or without fractional seconds.
  static func parseInstant(_ text: String) -> Date? {
    GPSDLogReplay.parseInstant(text.trimmingCharacters(in: .whitespaces))
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
  static func printProgress(_ text: String) {
    FileHandle.standardError.write(Data("\r\u{1B}[K\(text)".utf8))
  }

  static func printError(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
  }
}
