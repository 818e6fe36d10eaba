import DashPilotCore
import Foundation
import GPSD

/// Runs a gpsd JSON log (`gpspipe -w` output, or gpsd's `.chk` regression files) through the
/// same `CaptureService` and `RouteSampleFilter` the daemon uses, into an in-memory sink,
/// and measures what was kept. No daemon, no clock.
///
/// - A line that is not a JSON object with a class (`#` comments, NMEA sentences, blank
///   lines) is skipped and counted.
/// - A VERSION line is a new gpsd connection; DEVICE lines activate and deactivate.
/// - Staleness: a log holds no arrival times, only fix times. Replay treats each fix as
///   arriving at its own timestamp, so `FixAgeEstimator` learns a constant offset and
///   every fix is judged fresh (age 0); the wall clock never takes part. A log therefore
///   replays the same whenever and wherever it is replayed. A TPV without a time has no
///   age (nil) and is judged on its other fields.
public struct GPSDLogReplay {
  public struct Options: Sendable {
    public var filter: RouteSampleFilter.Configuration
    public var maximumSampleInterval: TimeInterval
    /// The shift's window, when it is known: uncovered ends count as gaps.
    public var window: DateInterval?

    public init(
      filter: RouteSampleFilter.Configuration = .init(),
      maximumSampleInterval: TimeInterval = RouteMileageCalculator.defaultMaximumSampleInterval,
      window: DateInterval? = nil
    ) {
      self.filter = filter
      self.maximumSampleInterval = maximumSampleInterval
      self.window = window
    }
  }

  public let options: Options
  public let sink = InMemorySampleSink()
  public private(set) var service: CaptureService
  public private(set) var lines = 0
  public private(set) var skippedLines = 0
  /// The time of the last fix seen, used as the arrival of a TPV that has no time.
  private var lastFixSeconds = 0.0

  public init(options: Options = Options()) {
    self.options = options
    var counter = 0
    service = CaptureService(
      sink: sink, filter: RouteSampleFilter(configuration: options.filter),
      makeSessionID: {
        counter += 1
        return CaptureSessionID("replay-\(counter)")
      })
    // The in-memory sink starts empty, so starting cannot fail.
    try? service.startCapture()
  }

  /// Feeds one line (without its newline).
  public mutating func feed(line: some StringProtocol) {
    lines += 1
    guard let report = GPSDJSONDecoder.decode(line) else {
      skippedLines += 1
      return
    }
    feed(report: report)
  }

  /// Feeds one decoded report.
  public mutating func feed(report: GPSDReport) {
    var arrival = lastFixSeconds
    if case let .tpv(tpv) = report, let time = tpv.time {
      arrival = time.timeIntervalSince1970
      lastFixSeconds = arrival
    }
    _ = service.receive(report, arrival: arrival)
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

  /// Ends capture (the end of the log) and measures what was kept.
  public mutating func finish() -> ReplayResult {
    _ = service.stopCapture(reason: "end of log")
    let calculator = RouteMileageCalculator(maximumSampleInterval: options.maximumSampleInterval)
    let distance = calculator.distance(of: sink.samples, covering: options.window)
    return ReplayResult(
      lines: lines, skippedLines: skippedLines, statistics: service.statistics,
      distance: distance, samples: sink.samples)
  }

  /// An ISO-8601 UTC instant as gpsd writes it (`2024-05-01T08:00:00Z`, fraction optional).
  public static func parseInstant(_ text: String) -> Date? { GPSDTime.parse(text) }

  /// Replays the file at `url`.
  public static func replay(
    contentsOf url: URL, options: Options = Options(), progress: ((Double) -> Void)? = nil
  ) throws -> ReplayResult {
    let data = try Data(contentsOf: url, options: .mappedIfSafe)
    var replay = GPSDLogReplay(options: options)
    replay.feed(contents: data, progress: progress)
    return replay.finish()
  }
}

/// What a replay found.
public struct ReplayResult: Sendable {
  public var lines: Int
  public var skippedLines: Int
  public var statistics: CaptureStatistics
  public var distance: RouteDistance
  /// The samples kept, in order.
  public var samples: [RouteSample]

  public var captureSessions: Int { statistics.sessionsStarted }
}
