import Capture
import DashPilotCore
import FoundationEssentials
import Guidance
import PlatformSupport
import RouteFiles

#if canImport(Glibc)
  import Glibc
#endif

/// `dashpilotctl replay FILE`: the capture pipeline run offline over a gpsd JSON log, no
/// daemon needed (it takes `--socket` as every command does, and ignores it).
struct ReplayCommand: CLICommand {
  static let words = ["replay"]
  static let summary = "Replay a gpsd JSON log offline through the same pipeline (no daemon)."
  static let help = """
    USAGE: dashpilotctl replay FILE [--route FILE] [--mode driving|walking]
                               [--window START,END] [--units miles|kilometres]
                               [--shifts movement [--end-after-stop DURATION]
                                 [--end-at-place NAME]]
                               [--stops [--minimum-stop DURATION]] [--places FILE]
                               [--json]

    Runs a gpsd JSON log (gpspipe -w output) through the same capture filter and
    capture sessions as dashpilotd, without a daemon, and reports what would be recorded.
    Lines that are not gpsd JSON (comments, NMEA) are skipped and counted. A log
    recorded with gpspipe -w -u (or -uu) stamps each line's arrival: the fixes of a
    receiver that sends no date (GGA only) are dated by it, as dashpilotd dates them.

    OPTIONS:
      --route FILE          Follow this route (GPX or GeoJSON) with the guidance engine
                            and report when it joined, left, came back and arrived.
                            Replay has no routing provider, so it never reroutes.
      --mode MODE           driving (default) or walking, for guidance.
      --window START,END    The shift's window, ISO-8601 UTC (2024-05-01T08:00:00Z): a
                            recording that starts late or stops early shows a gap there.
      --units UNITS         miles (default) or kilometres.
      --shifts movement     Also list the shifts dashpilotd would start and end by
                            itself ([Shift] Start=movement): each starts when the
                            vehicle has moved 200 m from where it stood, and ends at
                            its last moving fix after it stands still (or no fix
                            comes) for the limit; one still open at the end of the
                            log ends at its last fix.
      --end-after-stop DURATION
                            The limit for --shifts, as [Shift] EndAfterStop= takes
                            it: 45min (default), 2700s, 1h.
      --end-at-place NAME   For --shifts, as [Shift] EndAtPlace= says it: a shift
                            also ends 2 min into a stop inside the place NAME of
                            --places (ended_by stopped_at_place).
      --stops               Also list the stops: each time the vehicle stood still
                            with the receiver reporting for the minimum or longer
                            (arrival, departure, duration, where), and how the
                            recording's time divided into moving, stopped and not
                            captured.
      --minimum-stop DURATION
                            The shortest stop for --stops: 2min (default), 90s,
                            0.5h.
      --places FILE         A places file as dashpilotd reads it ([Places] File=, a
                            GeoJSON FeatureCollection; see dashpilot.conf(5)): with
                            --stops, each stop is named by the place it lies in; it
                            holds the place of --end-at-place; and nothing is
                            recorded inside a place of kind private (a gap).
      --json                Print one JSON object instead of the report.
      -h, --help            Show this help.
    """

  var file: String
  var route: String?
  var mode: TravelMode
  var window: DateInterval?
  var unit: DistanceUnit
  /// The shifts to find, with `--shifts movement`.
  var shifts: ShiftPolicy.Configuration?
  /// The stops to find, with `--stops`.
  var stops: StopPolicy?
  /// The places file that names the stops, with `--places`.
  var places: String?
  /// `--end-at-place`: the place of `places` where a shift ends after a short stop.
  var endAtPlace: String?

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
    shifts = try Self.shifts(
      try arguments.option("--shifts", value: "movement"),
      endAfterStop: try arguments.option("--end-after-stop", value: "a DURATION"))
    stops = try ReplayStops.policy(
      arguments.flag("--stops"), minimumStop: try arguments.option("--minimum-stop", value: "a DURATION"),
      command: Self.name)
    places = try arguments.option("--places", value: "a FILE")
    endAtPlace = try arguments.option("--end-at-place", value: "a place's NAME")
    if endAtPlace != nil, shifts == nil || places == nil {
      throw UsageError("--end-at-place needs --shifts movement and --places", command: Self.name)
    }
    file = try arguments.requiredPositional("the gpsd JSON log FILE")
    try arguments.finish()
  }

  /// `--shifts movement` and its `--end-after-stop`, as `[Shift]` takes them.
  static func shifts(_ mode: String?, endAfterStop: String?) throws(UsageError) -> ShiftPolicy.Configuration? {
    guard let mode else {
      if endAfterStop != nil { throw UsageError("--end-after-stop needs --shifts movement", command: name) }
      return nil
    }
    guard mode == "movement" else {
      throw UsageError(
        "--shifts takes movement, not \"\(mode)\" (a replay has nobody to start a shift by hand)", command: name)
    }
    var configuration = ShiftPolicy.Configuration()
    if let text = endAfterStop {
      guard let seconds = DurationText.seconds(text), seconds > 0 else {
        throw UsageError(
          "--end-after-stop must be a duration such as 45min, 2700s or 1h, not \"\(text)\"", command: name)
      }
      configuration.endAfterStop = seconds
    }
    return configuration
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
    var namedPlaces: [Place] = []
    if let places {
      do {
        namedPlaces = try PlacesFileReader.places(at: places)
      } catch {
        console.error("dashpilotctl replay: places: \(error)")
        return .failed
      }
    }
    var shifts = shifts
    if let name = endAtPlace, let places {
      guard let place = namedPlaces.first(where: { $0.name == name }) else {
        console.error("dashpilotctl replay: --end-at-place: no place is named \"\(name)\" in \(places)")
        return .failed
      }
      shifts?.endPlace = place
    }
    let url = URL(fileURLWithPath: file)
    var status = stat()
    if stat(file, &status) == 0, status.st_mode & S_IFMT == S_IFDIR {
      console.error("dashpilotctl replay: \(file) is a directory, not a gpsd JSON log")
      return .failed
    }
    let result: ReplayResult
    let showsProgress = isatty(STDERR_FILENO) == 1
    do {
      result = try GPSDLogReplay.replay(
        contentsOf: url,
        options: GPSDLogReplay.Options(
          window: window, route: replayRoute, shifts: shifts, stops: stops, privatePlaces: namedPlaces),
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
    var report = ReplayReport(result: result, unit: unit, endAfterStop: shifts?.endAfterStop)
    report.endPlace = shifts?.endPlace.map { ($0.name, shifts?.endAfterStopAtPlace ?? 120) }
    if let stops, let found = result.stops {
      report.stops = ReplayStops(result: result, stops: found, policy: stops, places: namedPlaces, window: window)
    }
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
    switch (error as? CocoaError)?.code {
    case .fileReadNoSuchFile?: "no such file"
    case .fileReadNoPermission?: "permission denied"
    default: SystemErrorText.reason(error)
    }
  }

  /// Rewrites the progress line on the terminal (an empty text clears it).
  static func printProgress(_ text: String, _ console: Console) {
    console.writeError("\r\u{1B}[K\(text)")
  }
}
