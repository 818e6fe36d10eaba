import DashPilotCore
import FoundationEssentials
import Store

/// One shift `replay --shifts movement` found in a log.
public struct ReplayShift: Sendable, Hashable {
  public var startedAt: Date
  public var endedAt: Date
  public var startedBy: ShiftStartCause
  public var endedBy: ShiftEndCause
  /// Measured from its rows within its window, as `shift show` measures a shift.
  public var distance: RouteDistance
}

/// `replay --shifts movement`: the log's kept samples through `ShiftRecorder`, into a
/// temporary database of their own, exactly as the daemon records them with `[Shift]
/// Start=movement`; the log's time passing is each report's fix time, as the daemon's is
/// the receiver's. A failure of that database is kept (`failure`): the shifts are then not
/// the log's.
final class ReplayShifts {
  /// The fix time of the report being replayed: the batches' "now".
  var now: Date?
  private(set) var failure: String?
  private var database: ReplayDatabase?
  private var recorder: ShiftRecorder?
  private var finished: [ReplayShift]?

  init(configuration: ShiftPolicy.Configuration, maximumSampleInterval: TimeInterval) {
    do {
      let database = try ReplayDatabase()
      self.database = database
      recorder = try ShiftRecorder(
        store: database.store, configuration: configuration, maximumSampleInterval: maximumSampleInterval,
        now: { [unowned self] in self.now ?? .distantPast })
    } catch {
      failure = "\(error)"
    }
  }

  func save(_ sample: RouteSample) {
    attempt { try $0.save(sample) }
  }

  func captureSessionStarted(_ session: CaptureSessionID, reason: SessionStartReason, at: Date?) {
    recorder?.captureSessionStarted(session, reason: reason, at: at)
  }

  func captureSessionEnded(_ session: CaptureSessionID, reason: SessionEndReason, at: Date?) {
    recorder?.captureSessionEnded(session, reason: reason, at: at)
  }

  /// A report of the receiver's time `time` was replayed.
  func timePassed(_ time: Date) {
    now = time
    attempt { try $0.timePassed(receiverTime: time) }
  }

  /// Ends a shift still open (`end_of_log`) and returns every shift, oldest first; the
  /// temporary database goes. Called again, it answers the same.
  func finish() -> [ReplayShift] {
    if let finished { return finished }
    attempt { try $0.logEnded() }
    var shifts: [ReplayShift] = []
    for change in recorder?.takeChanges() ?? [] {
      guard case let .ended(stored, distance) = change, let endedAt = stored.shift.endedAt else { continue }
      guard let distance else {
        failure = failure ?? "shift \(stored.id) could not be measured: \(recorder?.lastError.map { "\($0)" } ?? "?")"
        continue
      }
      shifts.append(
        ReplayShift(
          startedAt: stored.shift.startedAt, endedAt: endedAt, startedBy: stored.startedBy ?? .movement,
          endedBy: stored.endedBy ?? .endOfLog, distance: distance))
    }
    finished = shifts
    recorder = nil
    database = nil
    return shifts
  }

  /// A sample the store cannot hold (a time millennia away) is the sample's fault, as in
  /// the daemon; anything else means the database failed.
  private func attempt(_ body: (ShiftRecorder) throws -> Void) {
    guard let recorder, failure == nil else { return }
    do {
      try body(recorder)
    } catch {
      if !ReplayShiftSink.isTheSamplesFault(error) { failure = "\(error)" }
    }
  }
}

/// The replay's sink with `--shifts`: every kept sample to the whole log's shift (the
/// figure replay always gives, and the sample the filter judges by) and to the shifts.
final class ReplayShiftTee: SampleSink {
  let log: ReplayShiftSink
  let shifts: ReplayShifts

  init(log: ReplayShiftSink, shifts: ReplayShifts) {
    self.log = log
    self.shifts = shifts
  }

  func save(_ sample: RouteSample) throws {
    try log.save(sample)
    shifts.save(sample)
  }

  func lastRetainedSample() throws -> RouteSample? { try log.lastRetainedSample() }

  func captureSessionStarted(_ session: CaptureSessionID, reason: SessionStartReason, at: Date?) {
    log.captureSessionStarted(session, reason: reason, at: at)
    shifts.captureSessionStarted(session, reason: reason, at: at)
  }

  func captureSessionEnded(_ session: CaptureSessionID, reason: SessionEndReason, at: Date?) {
    log.captureSessionEnded(session, reason: reason, at: at)
    shifts.captureSessionEnded(session, reason: reason, at: at)
  }
}
