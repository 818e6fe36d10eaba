import Capture
import DashPilotCore
import FoundationEssentials
import GPSD
import PlatformSupport
import Store

/// Capture, owned in one place: the service that judges fixes and groups them into
/// sessions (`CaptureService`) and where it keeps what it kept, which is what the recording
/// mode decides (`Mode`). Each call does its I/O and says what happened as one
/// `CaptureOutcome`, for `RecordingCoordinator`. Loop thread only.
final class ShiftCapture {
  /// Where kept samples go: what differs between `[Shift] Start=manual` and `movement`.
  enum Mode {
    /// `manual`: capture runs while a shift is open, into that shift's one-second batches.
    case manual(StoreSampleSink)
    /// `movement`: capture runs all the time, and `ShiftRecorder` keeps each sample in the
    /// shift `ShiftPolicy` gives it, opening and ending shifts as the policy decides.
    case movement(ShiftRecorder)
  }

  let mode: Mode
  private var service: CaptureService
  private let sink: any CaptureStoreSink

  /// Starts capturing into `shift` (`Start=manual`): the filter judges from what the store
  /// already holds. `wallClock` dates the batches and the session records the sink writes.
  convenience init(
    shift: Int64, store: SampleStore, batchPolicy: SampleBatchPolicy, filter: RouteSampleFilter,
    privatePlaces: [Place], makeSessionID: @escaping () -> CaptureSessionID, wallClock: @escaping () -> Date
  ) throws {
    // The batch's one-second age is judged on the wall clock, as the session records it
    // dates are; `SampleBatchPolicy` writes at once when that clock has stepped back.
    let sink = StoreSampleSink(batch: SampleBatch(store: store, shiftID: shift, policy: batchPolicy), now: wallClock)
    try self.init(.manual(sink), filter: filter, privatePlaces: privatePlaces, makeSessionID: makeSessionID)
  }

  /// Starts capturing through `mode`'s sink: the filter judges from its last kept sample.
  init(
    _ mode: Mode, filter: RouteSampleFilter, privatePlaces: [Place], makeSessionID: @escaping () -> CaptureSessionID
  ) throws {
    self.mode = mode
    switch mode {
    case .manual(let sink): self.sink = sink
    case .movement(let recorder): self.sink = recorder
    }
    service = CaptureService(
      sink: sink, filter: filter, holdsAfterSaveFailure: true, privatePlaces: privatePlaces,
      makeSessionID: makeSessionID)
    try service.startCapture()
  }

  /// The places file changed (`places.load`): its private places are where nothing is
  /// recorded from the next fix on.
  func replacePlaces(_ places: [Place]) {
    service.privatePlaces = PrivatePlaceGuard(places: places)
  }

  /// The shift samples go into now; nil while none is open.
  var shift: Int64? { sink.shiftID }
  var session: CaptureSessionID? { service.session }
  /// Whether capture holds on a failed save until the store takes a write again.
  var isHolding: Bool { service.storeFailure != nil }

  /// With `Start=movement`: the recorder that opens and ends shifts by itself.
  var recorder: ShiftRecorder? {
    if case .movement(let recorder) = mode { return recorder }
    return nil
  }

  /// One event of the gpsd reader. `wallClock` dates a fix that came with no date.
  func handle(_ event: GPSDSourceEvent, synchronisedWallClock: Date?, wallClock: ClockReading?) -> CaptureOutcome {
    outcome(service.handle(event, synchronisedWallClock: synchronisedWallClock, wallClock: wallClock))
  }

  /// What the tick asks of capture, in order: judge the receiver's last instant when no
  /// report has come for it since `quietSince` (monotonic seconds, the clock gpsd reports
  /// are stamped with: a receiver that went quiet does not keep its last fix unjudged and
  /// unwritten); write the batch when its second is up (a lone sample is not held when no
  /// further fix arrives); and with `Start=movement`, let the receiver's time (or a
  /// synchronised wall clock while no fix has dated it) end a shift the recorder holds.
  func tick(quietSince: Double, receiverTime: Date?, synchronisedWallClock: Date?) -> CaptureOutcome {
    var result = outcome(service.judgePendingInstant(arrivedBy: quietSince))
    do {
      if try sink.flushIfDue() > 0 { result.storeWrote = true }
    } catch {
      result.append(outcome(service.saveFailed(reason: error.description), diskFull: error.error.isDiskFull))
    }
    if case .movement(let recorder) = mode { result.append(timePassed(recorder, receiverTime, synchronisedWallClock)) }
    return result
  }

  /// Judges the receiver's last instant whatever it is, as when a test says the instant
  /// is complete.
  func judgePendingInstant() -> CaptureOutcome {
    outcome(service.judgePendingInstant())
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

  private func timePassed(
    _ recorder: ShiftRecorder, _ receiverTime: Date?, _ synchronisedWallClock: Date?
  ) -> CaptureOutcome {
    do {
      if let receiverTime {
        try recorder.timePassed(receiverTime: receiverTime)
      } else if let synchronisedWallClock {
        try recorder.timePassed(synchronisedWallClock: synchronisedWallClock)
      }
      return outcome([])
    } catch {
      return outcome(service.saveFailed(reason: "\(error)"), diskFull: Self.isDiskFull(error))
    }
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

  private func outcome(_ events: [CaptureEvent], diskFull: Bool = false) -> CaptureOutcome {
    // A kept sample with nothing left pending in its batch was just written.
    let wrote = sink.batchIsWritten && events.contains { if case .accepted = $0 { true } else { false } }
    return CaptureOutcome(
      shift: shift, events: events, storeWrote: wrote, diskFull: diskFull,
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
