import DashPilotCore
import Foundation
import Store

/// Where a replay's capture keeps its samples: a shift in a temporary database, written
/// through `StoreSampleSink` exactly as the daemon writes a drive.
///
/// The shift starts at the first fix (the fix that starts the first capture session) and
/// ends at the latest fix time seen, or spans `window` when the caller gives the shift's
/// window. Nothing is opened until then, so a log without a fix leaves no database at all.
/// A failure to open or write is kept (`failure`) and every later save throws it, which
/// capture counts as a sample that could not be saved, as it would in the daemon.
final class ReplayShiftSink: SampleSink {
  /// The fix time of the report being replayed: the batch policy's "now".
  var now: Date?
  /// The latest fix time seen (with a position): where the shift ends.
  private(set) var latestFix: Date?
  private(set) var failure: String?
  private let window: DateInterval?
  private let maximumSampleInterval: TimeInterval
  private var database: ReplayDatabase?
  private var sink: StoreSampleSink?
  private var shiftID: Int64?
  private var shiftStart: Date?

  init(window: DateInterval?, maximumSampleInterval: TimeInterval) {
    self.window = window
    self.maximumSampleInterval = maximumSampleInterval
  }

  struct Unavailable: Error, CustomStringConvertible {
    var description: String
  }

  func noteFix(at time: Date) {
    if latestFix.map({ time > $0 }) ?? true { latestFix = time }
  }

  func save(_ sample: RouteSample) throws {
    guard let sink = try openShift(at: sample.timestamp) else {
      throw Unavailable(description: failure ?? "no shift")
    }
    do {
      try sink.save(sample)
    } catch {
      remember("\(error)")
      throw error
    }
  }

  func lastRetainedSample() throws -> RouteSample? {
    try sink?.lastRetainedSample()
  }

  func captureSessionStarted(_ session: CaptureSessionID, reason: SessionStartReason, at: Date?) {
    // A session whose first fix has no time begins with its first sample instead.
    guard let start = at ?? now, let sink = try? openShift(at: start) else { return }
    sink.captureSessionStarted(session, reason: reason, at: at)
  }

  func captureSessionEnded(_ session: CaptureSessionID, reason: SessionEndReason, at: Date?) {
    sink?.captureSessionEnded(session, reason: reason, at: at)
  }

  /// Writes what is pending, ends the shift and measures it from its stored rows in one
  /// pass (`SampleStore.recordedDistance`), as `shift show` does for a recorded shift.
  /// With no shift (no fix in the log) the figure is that of an empty shift.
  func finish() -> (distance: RouteDistance, failure: String?) {
    let calculator = RouteMileageCalculator(maximumSampleInterval: maximumSampleInterval)
    guard let sink, let shiftID, let started = shiftStart else {
      return (calculator.distance(of: [RouteSample](), covering: window), failure)
    }
    do {
      try sink.flush()
      let end = window?.end ?? max(latestFix ?? started, started)
      _ = try sink.store.endShift(shiftID, at: end)
      return (try sink.store.recordedDistance(ofShift: shiftID), failure)
    } catch {
      remember("\(error)")
      return (calculator.distance(of: [RouteSample](), covering: window), failure)
    }
  }

  /// The store's sink for the replay's shift, opened at `start` on first use.
  private func openShift(at start: Date) throws -> StoreSampleSink? {
    if let sink { return sink }
    guard failure == nil else { return nil }
    do {
      let database = try ReplayDatabase()
      let shiftStart = window?.start ?? start
      let shift = try database.store.startShift(at: shiftStart, maximumSampleInterval: maximumSampleInterval)
      let opened = StoreSampleSink(
        batch: SampleBatch(store: database.store, shiftID: shift.id),
        now: { [unowned self] in self.now ?? start })
      self.database = database
      shiftID = shift.id
      self.shiftStart = shiftStart
      sink = opened
      return opened
    } catch {
      remember("\(error)")
      throw error
    }
  }

  private func remember(_ problem: String) {
    if failure == nil { failure = problem }
  }
}
