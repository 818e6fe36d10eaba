import Capture
import DashPilotCore
import Foundation

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

  /// Runs the command with the arguments after the word `replay`; returns the exit status
  /// (0 done, 1 the file could not be read, 2 usage).
  public static func run(arguments: [String]) -> Int32 {
    switch ReplayArguments.parse(arguments) {
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
