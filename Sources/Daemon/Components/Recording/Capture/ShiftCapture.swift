import Capture
import DashPilotCore
import FoundationEssentials
import GPSD
import Store

/// Capture, owned in one place: the service that judges fixes and groups them into
/// sessions (`CaptureService`) and the sink that keeps them in the store's one-second
/// batches: one shift's (`StoreSampleSink`, `[Shift] Start=manual`: capture runs while a
/// shift is open), or the shift `ShiftPolicy` gives each sample (`ShiftRecorder`,
/// `Start=movement`: capture runs all the time). Each call does its I/O and says what
/// happened as a `CaptureOutcome`, for `RecordingCoordinator`. Loop thread only.
final class ShiftCapture {
  private var service: CaptureService
  private let sink: any CaptureStoreSink
  /// With `Start=movement`: the sink that opens and ends shifts by itself.
  let recorder: ShiftRecorder?

  /// Starts capturing into `shift`: the filter judges from what the store already holds.
  /// `wallClock` dates the batches and the session records the sink writes.
  convenience init(
    shift: Int64, store: SampleStore, batchPolicy: SampleBatchPolicy, filter: RouteSampleFilter,
    makeSessionID: @escaping () -> CaptureSessionID, wallClock: @escaping () -> Date
  ) throws {
    // The batch's one-second age is judged on the wall clock, as the session records it
    // dates are; `SampleBatchPolicy` writes at once when that clock has stepped back.
    let sink = StoreSampleSink(batch: SampleBatch(store: store, shiftID: shift, policy: batchPolicy), now: wallClock)
    try self.init(sink: sink, filter: filter, makeSessionID: makeSessionID)
  }

  /// Starts capturing through `sink`: the filter judges from its last kept sample.
  init(sink: any CaptureStoreSink, filter: RouteSampleFilter, makeSessionID: @escaping () -> CaptureSessionID) throws {
    self.sink = sink
    recorder = sink as? ShiftRecorder
    service = CaptureService(
      sink: sink, filter: filter, holdsAfterSaveFailure: true, makeSessionID: makeSessionID)
    try service.startCapture()
  }

  /// The shift samples go into now; nil while none is open.
  var shift: Int64? { sink.shiftID }
  var session: CaptureSessionID? { service.session }
  var statistics: CaptureStatistics { service.statistics }
  /// Whether capture holds on a failed save until the store takes a write again.
  var isHolding: Bool { service.storeFailure != nil }

  /// One event of the gpsd reader.
  func handle(_ event: GPSDSourceEvent, synchronisedWallClock: Date?) -> CaptureOutcome {
    let before = service.statistics
    let events = service.handle(event, synchronisedWallClock: synchronisedWallClock)
    return outcome(events, statisticsBefore: before)
  }

  /// Judges the receiver's last instant when no report has come for it since `arrival`
  /// (monotonic seconds, the clock gpsd reports are stamped with): a receiver that went
  /// quiet does not keep its last fix unjudged and unwritten.
  func judgeInstantIfQuietSince(_ arrival: Double) -> CaptureOutcome? {
    let before = service.statistics
    let events = service.judgePendingInstant(arrivedBy: arrival)
    return events.isEmpty ? nil : outcome(events, statisticsBefore: before)
  }

  enum Flush {
    case nothingDue
    case wrote
    /// The write failed: a failed save, which ends the session.
    case failed(CaptureOutcome)
  }

  /// Writes the batch when its second is up (the tick: a lone sample is not held when no
  /// further fix arrives).
  func flushIfDue() -> Flush {
    do {
      return try sink.flushIfDue() > 0 ? .wrote : .nothingDue
    } catch {
      return .failed(outcome(service.saveFailed(reason: error.description), diskFull: error.error.isDiskFull))
    }
  }

  /// Tries the store again while capture holds (one real write, see
  /// `StoreSampleSink.retryAfterFailure`) once the file system has room
  /// (`SampleStore.roomToResume`); on success the hold ends and the next fix begins one
  /// new session.
  func retryStore() -> Bool {
    // Whatever refused the save, a file system this close to full takes no session.
    guard sink.store.hasRoomToResume() else { return false }
    do {
      try sink.retryAfterFailure()
    } catch {
      return false
    }
    service.storeRecovered()
    return true
  }

  /// The receiver's time now, or a synchronised wall clock while no fix has dated it:
  /// a shift the recorder holds may end. A store that fails meanwhile is a failed save.
  func timePassed(receiverTime: Date?, synchronisedWallClock: Date?) -> CaptureOutcome? {
    guard let recorder else { return nil }
    var events: [CaptureEvent] = []
    var diskFull = false
    do {
      if let receiverTime {
        try recorder.timePassed(receiverTime: receiverTime)
      } else if let synchronisedWallClock {
        try recorder.timePassed(synchronisedWallClock: synchronisedWallClock)
      }
    } catch {
      events = service.saveFailed(reason: "\(error)")
      diskFull = Self.isDiskFull(error)
    }
    let outcome = outcome(events, diskFull: diskFull)
    return events.isEmpty && outcome.shiftChanges.isEmpty ? nil : outcome
  }

  /// `shift start` with `Start=movement`: capture goes on, into the new shift.
  func startByHand(at start: Date) throws -> StoredShift {
    guard let recorder else { throw RecordingNotStarted() }
    return try recorder.startByHand(at: start)
  }

  /// `shift end` with `Start=movement`: capture goes on, watching for the next movement.
  func endByHand(at end: Date) throws -> (StoredShift, RouteDistance) {
    guard let recorder else { throw RecordingNotStarted() }
    return try recorder.endByHand(at: end)
  }

  /// Writes what is pending and ends the session (shift end, daemon stopping).
  func stop(reason: String) -> CaptureOutcome {
    var events: [CaptureEvent] = []
    var diskFull = false
    do {
      try sink.flush()
    } catch {
      events += service.saveFailed(reason: error.description)
      diskFull = error.error.isDiskFull
    }
    events += service.stopCapture(reason: reason)
    return outcome(events, diskFull: diskFull)
  }

  private func outcome(
    _ events: [CaptureEvent], statisticsBefore: CaptureStatistics? = nil, diskFull: Bool = false
  ) -> CaptureOutcome {
    CaptureOutcome(
      shift: shift, events: events, statisticsBefore: statisticsBefore, statistics: service.statistics,
      batchIsWritten: sink.batchIsWritten, diskFull: diskFull,
      shiftChanges: (recorder?.takeChanges() ?? []).compactMap(Self.change))
  }

  private static func change(_ change: ShiftRecorder.Change) -> ShiftChange? {
    switch change {
    case let .started(stored, displacement?):
      return .started(shift: stored.id, at: stored.shift.startedAt, displacement: displacement)
    case .started(_, nil):
      return nil
    case let .ended(stored, distance):
      return .ended(
        shift: stored.id, at: stored.shift.endedAt ?? stored.shift.startedAt, cause: stored.endedBy ?? .manual,
        distance: distance)
    }
  }

  private static func isDiskFull(_ error: any Error) -> Bool {
    ((error as? SampleBatchFailure)?.error ?? (error as? StoreError))?.isDiskFull ?? false
  }
}

extension StoreError {
  var isDiskFull: Bool {
    if case .diskFull = self { return true }
    return false
  }
}
