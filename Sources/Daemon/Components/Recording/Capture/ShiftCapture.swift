import Capture
import DashPilotCore
import FoundationEssentials
import GPSD
import Store

/// The open shift's capture, owned in one place: the service that judges fixes and groups
/// them into sessions (`CaptureService`) and the sink that keeps them in the store's
/// one-second batches (`StoreSampleSink`). Each call does its I/O and says what happened as
/// a `CaptureOutcome`, for `RecordingCoordinator`. Loop thread only.
final class ShiftCapture {
  let shift: Int64
  private var service: CaptureService
  private let sink: StoreSampleSink

  /// Starts capturing into `shift`: the filter judges from what the store already holds.
  /// `wallClock` dates the batches and the session records the sink writes.
  init(
    shift: Int64, store: SampleStore, batchPolicy: SampleBatchPolicy, filter: RouteSampleFilter,
    makeSessionID: @escaping () -> CaptureSessionID, wallClock: @escaping () -> Date
  ) throws {
    self.shift = shift
    // The batch's one-second age is judged on the wall clock, as the session records it
    // dates are; `SampleBatchPolicy` writes at once when that clock has stepped back.
    sink = StoreSampleSink(batch: SampleBatch(store: store, shiftID: shift, policy: batchPolicy), now: wallClock)
    service = CaptureService(
      sink: sink, filter: filter, holdsAfterSaveFailure: true, makeSessionID: makeSessionID)
    try service.startCapture()
  }

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
  /// `StoreSampleSink.retryAfterFailure`); on success the hold ends and the next fix begins
  /// one new session.
  func retryStore() -> Bool {
    do {
      try sink.retryAfterFailure()
    } catch {
      return false
    }
    service.storeRecovered()
    return true
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
      batchIsWritten: sink.batch.pending.isEmpty, diskFull: diskFull)
  }
}

extension StoreError {
  var isDiskFull: Bool {
    if case .diskFull = self { return true }
    return false
  }
}
