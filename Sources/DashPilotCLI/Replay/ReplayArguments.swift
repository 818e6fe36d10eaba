import Capture
import DashPilotCore
import FoundationEssentials
import Guidance
import PlatformSupport

/// The arguments of `dashpilotctl replay` (after the word `replay`), parsed.
public struct ReplayArguments: Sendable, Hashable {
  public var file: String
  public var route: String?
  public var mode: TravelMode = .driving
  public var window: DateInterval?
  public var unit: DistanceUnit = .miles
  public var json = false

  public init(file: String) { self.file = file }

  public enum Parsed: Sendable, Hashable {
    case run(ReplayArguments)
    case help
    /// A sentence naming what was wrong.
    case usageError(String)
  }

  public static func parse(_ arguments: [String]) -> Parsed {
    var file: String?
    var parsed = ReplayArguments(file: "")
    var index = 0
    func value() -> String? {
      index += 1
      return index < arguments.count ? arguments[index] : nil
    }
    while index < arguments.count {
      let argument = arguments[index]
      switch argument {
      case "-h", "--help": return .help
      case "--json": parsed.json = true
      case "--route":
        guard let path = value() else { return .usageError("--route needs a FILE") }
        parsed.route = path
      case "--mode":
        guard let text = value(), let mode = TravelMode(rawValue: text) else {
          return .usageError("--mode must be driving or walking")
        }
        parsed.mode = mode
      case "--units":
        guard let text = value(), let unit = DistanceUnit(name: text) else {
          return .usageError("--units must be miles or kilometres")
        }
        parsed.unit = unit
      case "--window":
        guard let text = value() else { return .usageError("--window needs START,END") }
        switch parseWindow(text) {
        case let .success(window): parsed.window = window
        case let .failure(problem): return .usageError(problem.sentence)
        }
      default:
        if argument.hasPrefix("-"), argument != "-" {
          return .usageError("unknown option '\(argument)'")
        }
        guard file == nil else {
          return .usageError("only one FILE may be given (also got '\(argument)')")
        }
        file = argument
      }
      index += 1
    }
    guard let file else { return .usageError("a FILE (gpsd JSON log) is required") }
    parsed.file = file
    return .run(parsed)
  }

  public struct Problem: Error, Sendable, Hashable {
    public var sentence: String
  }

  /// `START,END`, each ISO-8601 UTC as gpsd writes it (`2024-05-01T08:00:00Z`).
  public static func parseWindow(_ text: String) -> Result<DateInterval, Problem> {
    let parts = text.split(separator: ",", omittingEmptySubsequences: false)
    guard parts.count == 2 else {
      return .failure(Problem(sentence: "--window must be START,END (got '\(text)')"))
    }
    let trimmed = parts.map { $0.trimmingSpacesAndTabs }
    guard let start = GPSDLogReplay.parseInstant(trimmed[0]) else {
      return .failure(
        Problem(sentence: "--window start '\(trimmed[0])' is not an ISO-8601 UTC time such as 2024-05-01T08:00:00Z"))
    }
    guard let end = GPSDLogReplay.parseInstant(trimmed[1]) else {
      return .failure(
        Problem(sentence: "--window end '\(trimmed[1])' is not an ISO-8601 UTC time such as 2024-05-01T17:00:00Z"))
    }
    guard end >= start else { return .failure(Problem(sentence: "--window ends before it starts")) }
    return .success(DateInterval(start: start, end: end))
  }
}
