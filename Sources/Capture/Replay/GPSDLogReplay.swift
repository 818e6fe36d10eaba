import DashPilotCore
import FoundationEssentials
import GPSD
import PlatformSupport

/// Runs a gpsd JSON log (`gpspipe -w` output, or gpsd's `.chk` regression files) through the
/// same pipeline as the daemon: `CaptureService` and `RouteSampleFilter`, writing through
/// `StoreSampleSink` into a shift of a temporary SQLite database (see `ReplayShiftSink`,
/// removed afterwards), then the figure measured from the stored rows in one pass, as
/// `shift show` measures a shift. With a route, the guidance engine follows it too. No
/// daemon, no clock.
///
/// - A line that is not a JSON object with a class (`#` comments, NMEA sentences, blank
///   lines) is skipped and counted.
/// - A VERSION line is a new gpsd connection; DEVICE lines activate and deactivate.
/// - The shift starts at the first fix and ends at the latest, unless `Options.window`
///   gives the shift's window: a recording that starts late or stops early within it shows
///   a gap there.
/// - With `Options.stops`, the kept and held samples go through `StopPolicy` (with the
///   window, when given), as `shift show` finds a shift's stops in its rows.
/// - With `Options.shifts`, the same samples also go through `ShiftPolicy` (`ShiftRecorder`,
///   into a temporary database of their own), and the result lists the shifts it made.
/// - Time: a log holds no arrival times, only fix times. Replay treats each fix as arriving
///   at its own timestamp, so `FixAgeEstimator` learns a constant offset and every fix is
///   judged fresh (age 0); the wall clock never takes part. The store's batches judge "a
///   second" by the fix time of the report being replayed. A log therefore replays the same
///   whenever and wherever it is replayed. A TPV without a time has no age (nil) and is
///   judged on its other fields.
/// - Arrival times: a log recorded with `gpspipe -w -u` (or `-uu`) stamps each line with
///   when it arrived (`GPSPipeTimestamp`). The stamps are read and removed, and a fix that
///   came with no date (a receiver that sends GGA only) is dated by its stamp, flagged, as
///   the daemon dates it by its clock (`ArrivalDating`, taking the recording box's clock as
///   synchronised: the log was stamped to be replayed). A fix with a time keeps it. A plain
///   log has no arrivals, and its undated fixes are refused, counted (`undated`).
public struct GPSDLogReplay {
  public struct Options: Sendable {
    public var filter: RouteSampleFilter.Configuration
    public var maximumSampleInterval: TimeInterval
    /// The shift's window, when it is known: uncovered ends count as gaps.
    public var window: DateInterval?
    /// A route for the guidance engine to follow, if any.
    public var route: ReplayRoute?
    /// Shifts as `[Shift] Start=movement` makes them, if asked for.
    public var shifts: ShiftPolicy.Configuration?
    /// The stops, if asked for, found with this policy.
    public var stops: StopPolicy?
    /// The places nothing is recorded inside (kind `private`), as the daemon withholds them.
    public var privatePlaces: [Place]

    public init(
      filter: RouteSampleFilter.Configuration = .init(),
      maximumSampleInterval: TimeInterval = RouteMileageCalculator.defaultMaximumSampleInterval,
      window: DateInterval? = nil, route: ReplayRoute? = nil, shifts: ShiftPolicy.Configuration? = nil,
      stops: StopPolicy? = nil, privatePlaces: [Place] = []
    ) {
      self.filter = filter
      self.maximumSampleInterval = maximumSampleInterval
      self.window = window
      self.route = route
      self.shifts = shifts
      self.stops = stops
      self.privatePlaces = privatePlaces
    }
  }

  public let options: Options
  private let sink: ReplayShiftSink
  public private(set) var service: CaptureService
  public private(set) var lines = 0
  public private(set) var skippedLines = 0
  /// What capture accepted and handed to the store, in order, at full precision (the store
  /// keeps them to 1e-7 degree, 1 cm and 1 ms).
  private var accepted: [RouteSample] = []
  private var guidance: ReplayGuidance?
  private let shifts: ReplayShifts?
  /// The time of the last fix seen, used as the arrival of a TPV that has no time.
  private var lastFixSeconds = 0.0

  public init(options: Options = Options()) {
    self.options = options
    let sink = ReplayShiftSink(window: options.window, maximumSampleInterval: options.maximumSampleInterval)
    let shifts = options.shifts.map {
      ReplayShifts(configuration: $0, maximumSampleInterval: options.maximumSampleInterval)
    }
    self.sink = sink
    self.shifts = shifts
    var counter = 0
    service = CaptureService(
      sink: shifts.map { ReplayShiftTee(log: sink, shifts: $0) } ?? sink,
      filter: RouteSampleFilter(configuration: options.filter), privatePlaces: options.privatePlaces,
      makeSessionID: {
        counter += 1
        return CaptureSessionID("replay-\(counter)")
      })
    // Nothing is stored yet, so starting cannot fail.
    try? service.startCapture()
    guidance = options.route.map(ReplayGuidance.init)
  }

  /// Feeds one line (without its newline), with or without gpspipe's timestamp.
  public mutating func feed(line: some StringProtocol) {
    lines += 1
    let (stamp, rest) = GPSPipeTimestamp.split(Substring(line))
    guard let report = GPSDJSONDecoder.decode(rest) else {
      skippedLines += 1
      return
    }
    feed(report: report, arrivedAt: stamp)
  }

  /// Feeds one decoded report; `stamp` is its arrival as gpspipe stamped it, if it did.
  public mutating func feed(report: GPSDReport, arrivedAt stamp: Date? = nil) {
    var arrival = lastFixSeconds
    var wallClock: ClockReading?
    if case let .tpv(tpv) = report {
      if let time = tpv.time {
        arrival = time.timeIntervalSince1970
        lastFixSeconds = arrival
        sink.now = time
        if tpv.hasPosition { sink.noteFix(at: time) }
      } else if let stamp {
        // Dated by its arrival, if at all: the stamp is the clock, and the instant.
        arrival = stamp.timeIntervalSince1970
        wallClock = ClockReading(wall: stamp, monotonic: arrival, isWallClockSynchronised: true)
        sink.now = stamp
        if tpv.hasPosition, options.filter.dateByArrival != .never { sink.noteFix(at: stamp) }
      }
      guidance?.observe(tpv)
    }
    for event in service.receive(report, arrival: arrival, wallClock: wallClock) {
      if case let .accepted(sample) = event { accepted.append(sample) }
    }
    // After the instant before is judged, as the daemon's tick comes after its reports.
    if case let .tpv(tpv) = report, let time = tpv.time ?? wallClock?.wall { shifts?.timePassed(time) }
  }

  /// Feeds a whole log held in memory, split on newlines (CR LF too). `progress`, when
  /// given, is told the fraction read after every megabyte, for a progress line on a TTY.
  public mutating func feed(contents data: Data, progress: ((Double) -> Void)? = nil) {
    data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
      let bytes = raw.bindMemory(to: UInt8.self)
      var start = 0
      var index = 0
      let count = bytes.count
      let step = 1 << 20
      var nextReport = step
      while index <= count {
        if let progress, index >= nextReport {
          progress(Double(index) / Double(count))
          nextReport += step
        }
        if index == count || bytes[index] == 10 {
          var end = index
          if end > start, bytes[end - 1] == 13 { end -= 1 }
          if !(index == count && start == count) {
            let line = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
            feed(line: line)
          }
          start = index + 1
        }
        index += 1
      }
    }
  }

  /// Ends capture (the end of the log), ends the shift, measures it from the stored rows and
  /// removes the temporary database. A store that failed is reported in
  /// `ReplayResult.storeFailure`. The replay is over: feed nothing more.
  public mutating func finish() -> ReplayResult {
    for event in service.stopCapture(reason: "end of log") {
      if case let .accepted(sample) = event { accepted.append(sample) }
    }
    let (distance, failure) = sink.finish()
    let found = shifts?.finish()
    return ReplayResult(
      lines: lines, skippedLines: skippedLines, statistics: service.statistics,
      distance: distance, samples: accepted, guidance: guidance?.outcome, shifts: found,
      stops: options.stops?.stops(in: accepted, window: options.window),
      storeFailure: failure ?? shifts?.failure)
  }

  /// An ISO-8601 UTC instant as gpsd writes it (`2024-05-01T08:00:00Z`, fraction optional).
  public static func parseInstant(_ text: String) -> Date? { GPSDTime.parse(text) }

  /// Replays the file at `url`. Throws when it cannot be read, or when the temporary
  /// database failed (`ReplayStoreFailure`), since the figure would then be wrong.
  public static func replay(
    contentsOf url: URL, options: Options = Options(), progress: ((Double) -> Void)? = nil
  ) throws -> ReplayResult {
    let data = try Data(contentsOf: url, options: .mappedIfSafe)
    var replay = GPSDLogReplay(options: options)
    replay.feed(contents: data, progress: progress)
    let result = replay.finish()
    if let failure = result.storeFailure { throw ReplayStoreFailure(description: failure) }
    return result
  }
}

/// What a replay found.
public struct ReplayResult: Sendable {
  public var lines: Int
  public var skippedLines: Int
  public var statistics: CaptureStatistics
  public var distance: RouteDistance
  /// The samples capture accepted and handed to the store, in order, at full precision.
  public var samples: [RouteSample]
  /// What guidance said, when a route was followed.
  public var guidance: ReplayGuidanceOutcome?
  /// The shifts `ShiftPolicy` made of the log, oldest first, when `Options.shifts` asked.
  public var shifts: [ReplayShift]?
  /// The stops `StopPolicy` found in the kept and held samples, oldest first, when
  /// `Options.stops` asked.
  public var stops: [Stop]?
  /// Why the temporary database could not keep or measure the samples, if it could not:
  /// the figure is then not the log's.
  public var storeFailure: String?

  public var captureSessions: Int { statistics.sessionsStarted }
}

/// The replay's temporary database failed, so it has no figure to give.
public struct ReplayStoreFailure: Error, Sendable, CustomStringConvertible {
  public var description: String
}
