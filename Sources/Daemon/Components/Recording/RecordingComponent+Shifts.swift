import Capture
import ControlProtocol
import DashPilotCore
import FoundationEssentials
import PlatformSupport
import Store

// Opening and closing a shift, and capture with it: what `shift start` and `shift end` do,
// and what anything else in the component that starts or ends a shift must do the same way.
extension RecordingComponent {
  /// Opens a shift now, by hand: capture starts into it, or (`Start=movement`, capture
  /// running already) goes on into it.
  func startShift(_ store: SampleStore) throws -> ShiftSummary {
    let now = try clockNow()
    let stamp = coordinator.shiftStartStamp(now: now)
    let shift: StoredShift
    switch capture?.mode {
    case .movement(let recorder):
      shift = try recorder.startByHand(at: stamp)
      coordinator.shiftStarted(shift.id, stamped: stamp, now: now)
    case .manual, nil:
      shift = try store.startShift(at: stamp, maximumSampleInterval: configuration.maximumSampleInterval)
      coordinator.shiftStarted(shift.id, stamped: stamp, now: now)
      try beginCapture(shiftID: shift.id)
    }
    currentStop.shiftStarted(at: shift.shift.startedAt)
    context?.announce(
      .shiftStarted(.init(shift: shift.id, startedBy: .manual, startedAt: shift.shift.startedAt)),
      "shift \(shift.id) started; capture is on")
    return figure.summary(of: shift, distance: .empty)
  }

  /// Ends the open shift by hand, measured within its window: capture writes what is
  /// pending and stops with it, or (`Start=movement`) goes on, watching for the next
  /// movement.
  func endShift(_ store: SampleStore) throws -> ShiftSummary {
    let now = try clockNow()
    let ended: StoredShift
    let distance: RouteDistance
    switch capture?.mode {
    case .movement(let recorder):
      (ended, distance) = try recorder.endByHand(at: coordinator.shiftEndStamp(now: now))
    case .manual, nil:
      guard let open = try store.openShift() else { throw StoreError.noOpenShift }
      endCapture(reason: "shift ended", now: now)
      ended = try store.endShift(open.id, at: coordinator.shiftEndStamp(now: now))
      distance = try store.recordedDistance(ofShift: ended.id)
    }
    stopCut(byEndOf: ended)
    let summary = figure.summary(of: ended, distance: distance)
    context?.announce(
      .shiftEnded(
        .init(
          shift: ended.id, summary: summary.summary, endedBy: .manual, endedAt: ended.shift.endedAt, distance: distance)
      ),
      "shift \(ended.id) ended: \(summary.summary)")
    return summary
  }

  /// With `Start=movement`: capture runs from start-up, through `ShiftRecorder`, which opens
  /// and ends shifts as `ShiftPolicy` decides (a shift left open is resumed, waiting for a
  /// fix to decide whether it goes on).
  func beginWatching(_ store: SampleStore) throws {
    guard let clock = context?.clock else { return }
    let recorder = try ShiftRecorder(
      store: store, configuration: configuration.shiftPolicy, batchPolicy: batchPolicy,
      maximumSampleInterval: configuration.maximumSampleInterval, now: { clock.now().wall })
    capture = try ShiftCapture(
      .movement(recorder), filter: RouteSampleFilter(configuration: configuration.filter), privatePlaces: places,
      makeSessionID: makeSessionID)
    coordinator.captureStarted()
  }

  /// The shift capture runs for: the open shift, as far as this process knows.
  var openShiftID: Int64? { capture?.shift }

  /// Starts capturing into shift `shiftID` with a fresh capture.
  func beginCapture(shiftID: Int64) throws {
    guard let store, let clock = context?.clock else { return }
    capture = try ShiftCapture(
      shift: shiftID, store: store, batchPolicy: batchPolicy,
      filter: RouteSampleFilter(configuration: configuration.filter), privatePlaces: places,
      makeSessionID: makeSessionID, wallClock: { clock.now().wall })
    coordinator.captureStarted()
  }

  /// Writes what is pending and ends the session, if capture runs.
  func endCapture(reason: String, now: ClockReading) {
    guard let ending = capture else { return }
    capture = nil
    perform(coordinator.captured(ending.stop(reason: reason), now: now))
  }

  private func clockNow() throws -> ClockReading {
    guard let context else { throw RecordingNotStarted() }
    return context.clock.now()
  }
}

/// A shift command reached the component before it started (it answers only once the
/// store is open, so this is a wiring mistake).
struct RecordingNotStarted: Error, CustomStringConvertible {
  var description: String { "the recording component has not started" }
}
