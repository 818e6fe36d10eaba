import DashPilotCore
import FoundationEssentials
import Store

/// Where a replay's capture keeps its samples: a shift in a temporary database, written
/// through `StoreSampleSink` exactly as the daemon writes a drive.
///
/// The shift starts at the first fix (the fix that starts the first capture session) and
/// ends at the last fix with a position in log order (never before its start), or spans
/// `window` when the caller gives the shift's window. Nothing is opened until the first fix,
/// so a log without one leaves no database at all; `finish()` removes the database.
/// A failure of the database (it cannot be made, opened or written) is kept (`failure`) and
/// every later save throws it, which capture counts as a sample that could not be saved, as
/// it would in the daemon; the replay then has no figure to give. A sample the store refuses
/// by itself (a time millennia away) is only a failed save, as in the daemon.
final class ReplayShiftSink: SampleSink {
  /// The fix time of the report being replayed: the batch policy's "now".
  var now: Date?
  /// The time of the last fix with a position, in log order: where the shift ends.
  private(set) var lastFix: Date?
  private(set) var failure: String?
  private let window: DateInterval?
  private let maximumSampleInterval: TimeInterval
  private var database: ReplayDatabase?
  private var sink: StoreSampleSink?
  private var shiftID: Int64?
  private var shiftStart: Date?
  private var finished: (distance: RouteDistance, failure: String?)?

  init(window: DateInterval?, maximumSampleInterval: TimeInterval) {
    self.window = window
    self.maximumSampleInterval = maximumSampleInterval
  }

  struct Unavailable: Error, CustomStringConvertible {
    var description: String
  }

  func noteFix(at time: Date) {
    lastFix = time
  }

  func save(_ sample: RouteSample) throws {
    guard let sink = try openShift(at: sample.timestamp) else {
      throw Unavailable(description: failure ?? "no shift")
    }
    do {
      try sink.save(sample)
    } catch {
      if !Self.isTheSamplesFault(error) { remember("\(error)") }
      throw error
    }
  }

  /// A sample (or a first fix time) the store cannot hold, such as a time millennia away:
  /// the daemon would count it as a failed save and go on, and so does replay. Anything
  /// else means the temporary database itself failed, and the figure cannot be trusted.
  static func isTheSamplesFault(_ error: Error) -> Bool {
    let storeError = (error as? SampleBatchFailure)?.error ?? (error as? StoreError)
    switch storeError {
    case .invalidSample?, .invalidTime?: return true
    default: return false
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
  /// Called again, it answers the same.
  func finish() -> (distance: RouteDistance, failure: String?) {
    if let finished { return finished }
    let calculator = RouteMileageCalculator(maximumSampleInterval: maximumSampleInterval)
    var distance = calculator.distance(of: [RouteSample](), covering: window)
    if let sink, let shiftID, let started = shiftStart {
      do {
        try sink.flush()
        try endShift(shiftID, startedAt: started, in: sink.store)
        distance = try sink.store.recordedDistance(ofShift: shiftID)
      } catch {
        remember("\(error)")
      }
    }
    finished = (distance, failure)
    // The figure is known: the temporary database goes (see `ReplayDatabase.deinit`).
    sink = nil
    database = nil
    return (distance, failure)
  }

  /// Ends the shift at the window's end, else at the last fix; a last fix whose time cannot
  /// be stored (millennia away) gives way to the last kept sample.
  private func endShift(_ shiftID: Int64, startedAt started: Date, in store: SampleStore) throws {
    if let window {
      _ = try store.endShift(shiftID, at: window.end)
      return
    }
    let lastFixEnd = max(lastFix ?? started, started)
    do {
      _ = try store.endShift(shiftID, at: lastFixEnd)
    } catch {
      guard Self.isTheSamplesFault(error) else { throw error }
      let lastKept = try store.lastSample(ofShift: shiftID)?.timestamp ?? started
      _ = try store.endShift(shiftID, at: max(lastKept, started))
    }
  }

  /// The store's sink for the replay's shift, opened at `start` on first use.
  private func openShift(at start: Date) throws -> StoreSampleSink? {
    if let sink { return sink }
    guard failure == nil, finished == nil else { return nil }
    do {
      let database = try self.database ?? ReplayDatabase()
      self.database = database
      let shiftStart = window?.start ?? start
      let shift = try database.store.startShift(at: shiftStart, maximumSampleInterval: maximumSampleInterval)
      let opened = StoreSampleSink(
        batch: SampleBatch(store: database.store, shiftID: shift.id),
        now: { [unowned self] in self.now ?? start })
      shiftID = shift.id
      self.shiftStart = shiftStart
      sink = opened
      return opened
    } catch {
      // A first fix whose time cannot be stored leaves the shift to the next one; a window
      // that cannot be stored is the caller's, and no fix can mend it.
      if window != nil || !Self.isTheSamplesFault(error) { remember("\(error)") }
      throw error
    }
  }

  private func remember(_ problem: String) {
    if failure == nil { failure = problem }
  }
}
