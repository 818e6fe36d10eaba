import ControlProtocol
import FoundationEssentials
import PlatformSupport

#if canImport(Glibc)
  import Glibc
#endif

/// Reads a route sent as a route file's text (`route.load` with `args.gpx` or
/// `args.geojson`) with `dashpilot-route-reader`, a child process running RouteFiles, the
/// reader of `dashpilotctl route load FILE`: the box refuses a text with the words the CLI
/// uses for a file holding it, the argument named where the CLI names the file, while the
/// daemon itself maps no Foundation, ICU or libxml2. The format is the argument's: GPX text
/// in `args.geojson` is refused as JSON that is not JSON, as a `.geojson` file holding it
/// would be. Blocking (it waits for the child): the component runs it on a worker thread.
struct InlineRouteReader: Sendable {
  static let programName = "dashpilot-route-reader"
  /// A reading takes milliseconds (a 400 KB GPX, about 50 ms); a child still running after
  /// this is stuck and is killed.
  static let defaultTimeLimit: Double = 5

  /// The reader's path; nil when none was found (the reading then fails saying where it
  /// was looked for).
  let program: String?
  let timeLimit: Double
  private let lookedIn: [String]

  init(program: String, timeLimit: Double = Self.defaultTimeLimit) {
    self.program = program
    self.timeLimit = timeLimit
    lookedIn = [program]
  }

  /// The reader installed with the daemon: beside its executable (the build directory,
  /// `make install`'s BINDIR), or in `../libexec/dashpilot/` from it (the package's
  /// /usr/sbin/dashpilotd and /usr/libexec/dashpilot/).
  static func installed(timeLimit: Double = Self.defaultTimeLimit) -> InlineRouteReader {
    let candidates = executableDirectory().map { directory in
      [
        "\(directory)/\(programName)",
        "\(directory.split(separator: "/").dropLast().map { "/\($0)" }.joined())/libexec/dashpilot/\(programName)",
      ]
    }
    return InlineRouteReader(
      found: candidates?.first { access($0, X_OK) == 0 }, lookedIn: candidates ?? [], timeLimit: timeLimit)
  }

  private init(found: String?, lookedIn: [String], timeLimit: Double) {
    program = found
    self.lookedIn = lookedIn
    self.timeLimit = timeLimit
  }

  private static func executableDirectory() -> String? {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    guard count > 0 else { return nil }
    let path = String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    guard let slash = path.lastIndex(of: "/") else { return nil }
    return slash == path.startIndex ? "/" : String(path[..<slash])
  }

  /// `clocks`: the daemon's, whose monotonic clock times the child.
  func coordinates(of route: InlineRoute, clocks: Clocks) -> Result<[WireCoordinate], ControlError> {
    guard let program else {
      return .failure(
        ControlError(
          .unavailable,
          "route.load: the route reader \(Self.programName) is not installed (looked for "
            + lookedIn.joined(separator: " and ") + "); send the route as \"coordinates\""))
    }
    let child = RouteReaderChild(
      program: program, arguments: [route.format.rawValue, route.source], timeLimit: timeLimit, clocks: clocks)
    let unavailable = { (what: String) in
      Result<[WireCoordinate], ControlError>.failure(
        ControlError(.unavailable, "route.load: the route reader \(program) \(what); the route was not loaded"))
    }
    switch child.run(input: Array(route.text.utf8)) {
    case .couldNotStart(let reason): return unavailable("could not be started: \(reason)")
    case .timedOut: return unavailable("was still reading after \(Self.seconds(timeLimit)) s and was stopped")
    case .killedBySignal(let signal): return unavailable("was killed by signal \(signal)")
    case .exited(status: 1, _, let error):
      // The reader's own words, exactly as the CLI prints them for a file.
      let words = Self.text(error)
      return .failure(ControlError(.badArguments, "route.load: \(words)"))
    case .exited(status: 0, let output, _):
      guard let coordinates = try? JSONDecoder().decode([WireCoordinate].self, from: Data(output)) else {
        return unavailable("wrote what is not a list of coordinates")
      }
      return .success(coordinates)
    case .exited(let status, _, let error):
      let words = Self.text(error)
      return unavailable("exited with status \(status)" + (words.isEmpty ? "" : " (\(words))"))
    }
  }

  /// What the child wrote, without its last line's end.
  private static func text(_ bytes: [UInt8]) -> String {
    var text = String(decoding: bytes, as: UTF8.self)
    while text.last?.isNewline == true { text.removeLast() }
    return text
  }

  private static func seconds(_ value: Double) -> String {
    value == value.rounded() ? String(Int(value)) : String(value)
  }
}
