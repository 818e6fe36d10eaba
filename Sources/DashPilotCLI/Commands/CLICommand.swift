import ControlProtocol
import FoundationEssentials
import PlatformSupport

/// One `dashpilotctl` command: its words, its help for people, how it reads its
/// arguments and what it does.
protocol CLICommand {
  /// The words that name it: ["shift", "start"].
  static var words: [String] { get }
  /// One line for the command list.
  static var summary: String { get }
  /// The usage line and a paragraph for `dashpilotctl help COMMAND`.
  static var help: String { get }
  init(arguments: inout ArgumentCursor) throws(UsageError)
  func run(_ context: CommandContext) -> ExitStatus
}

extension CLICommand {
  static var name: String { words.joined(separator: " ") }
}

/// What a command runs with.
struct CommandContext {
  var options: GlobalOptions
  var console: Console
  var hooks: RouteFileHooks

  func connect(timeout: TimeInterval = 30) throws(ClientFailure) -> ControlClient {
    try ControlClient(socketPath: options.socketPath, timeout: timeout)
  }

  /// Prints a failure and returns its exit status.
  func report(_ failure: ClientFailure) -> ExitStatus {
    if options.json, case .refused(let error) = failure {
      console.line(String(decoding: ControlCoding.line(["error": error]).dropLast(), as: UTF8.self))
    }
    console.error("dashpilotctl: \(failure.message)")
    return failure.exitStatus
  }

  /// Prints a result as JSON, keys sorted, for scripts.
  func printJSON<T: Encodable>(_ value: T) {
    let encoder = ControlCoding.makeEncoder()
    encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
    if let data = try? encoder.encode(value) { console.line(String(decoding: data, as: UTF8.self)) }
  }

  /// Runs `body` against a fresh connection, mapping every failure to its exit status.
  func withClient(_ body: (ControlClient) throws(ClientFailure) -> ExitStatus) -> ExitStatus {
    do throws(ClientFailure) {
      return try body(try connect())
    } catch {
      return report(error)
    }
  }
}

/// Parses "51.5,-0.12" (a comma, optional spaces) into a position.
func parseCoordinate(_ text: String, command: String) throws(UsageError) -> WireCoordinate {
  let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingSpacesAndTabs }
  guard parts.count == 2, let lat = Double(parts[0]), let lon = Double(parts[1]), lat.isFinite, lon.isFinite,
    abs(lat) <= 90, abs(lon) <= 180
  else {
    throw UsageError("\"\(text)\" is not LAT,LON in degrees (such as 51.5074,-0.1278)", command: command)
  }
  return WireCoordinate(lat: lat, lon: lon)
}

func parseMode(_ text: String?, command: String) throws(UsageError) -> WireTravelMode {
  guard let text else { return .driving }
  guard let mode = WireTravelMode(rawValue: text) else {
    throw UsageError("--mode must be driving or walking, not \"\(text)\"", command: command)
  }
  return mode
}
