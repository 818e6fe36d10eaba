import Capture
import ControlProtocol
import DashPilotCore
import FoundationEssentials
import PlatformSupport
import Store

// Opening and closing a shift, and capture with it: what `shift start` and `shift end` do,
// and what anything else in the component that starts or ends a shift must do the same way.
extension RecordingComponent {
  /// Opens a shift now and starts capturing into it.
  func startShift(_ store: SampleStore) throws -> ShiftSummary {
    let now = try clockNow()
    let stamp = coordinator.shiftStartStamp(now: now)
    let shift = try store.startShift(at: stamp, maximumSampleInterval: configuration.maximumSampleInterval)
    coordinator.shiftStarted(shift.id, stamped: stamp, now: now)
    try beginCapture(shiftID: shift.id)
    context?.announce(.shiftStarted(.init(shift: shift.id)), "shift \(shift.id) started; capture is on")
    return figure.summary(of: shift.shift, distance: .empty)
  }

  /// Writes what is pending, ends the session and the shift, and measures it within its
  /// window.
  func endShift(_ store: SampleStore) throws -> ShiftSummary {
    guard let open = try store.openShift() else { throw StoreError.noOpenShift }
    let now = try clockNow()
    endCapture(reason: "shift ended", now: now)
    let ended = try store.endShift(open.id, at: coordinator.shiftEndStamp(now: now))
    let summary = figure.summary(of: ended.shift, distance: try store.recordedDistance(ofShift: ended.id))
    context?.announce(
      .shiftEnded(.init(shift: ended.id, summary: summary.summary)), "shift \(ended.id) ended: \(summary.summary)")
    return summary
  }

  /// The shift capture runs for: the open shift, as far as this process knows.
  var openShiftID: Int64? { capture?.shift }

  /// Starts capturing into shift `shiftID` with a fresh capture.
  func beginCapture(shiftID: Int64) throws {
    guard let store, let clock = context?.clock else { return }
    capture = try ShiftCapture(
      shift: shiftID, store: store, batchPolicy: batchPolicy,
      filter: RouteSampleFilter(configuration: configuration.filter),
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
