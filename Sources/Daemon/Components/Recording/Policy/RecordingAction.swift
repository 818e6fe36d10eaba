import Capture
import DashPilotCore
import FoundationEssentials
import Guidance

/// What the recording component must do after `RecordingCoordinator` has seen something.
enum RecordingAction: Hashable {
  /// Tell the journal and `events` followers.
  case announce(EventReport)
  /// A journal line that is no event.
  case log(LogPriority, String, LogFields)
  /// Tell the fix observers (guidance) of a fix gpsd reported with a position.
  case observeFix(GuidanceFix)
  /// Tell the fix observers of a sample capture kept.
  case observeAccepted(RouteSample)
  /// The shift's start was stamped by a wall clock the receiver disagrees with: write the
  /// receiver's time instead (`wallClockError`: how far the wall clock was off, seconds).
  case redateShiftStart(shift: Int64, to: Date, wallClockError: TimeInterval)
}

/// What capture did with one input (a report, a tick, capture stopping), as one value: its
/// events in order, and what they meant for the store and the shift.
struct CaptureOutcome: Hashable {
  /// The shift open after it, if any.
  var shift: Int64?
  var events: [CaptureEvent] = []
  /// Whether a write to the store succeeded (a kept sample's batch, or a timed flush).
  var storeWrote = false
  /// Whether the store's error, for a save that failed outside a fix (a timed flush), was
  /// a full disk: the one failure a restart cannot cure.
  var diskFull = false
  /// Shifts capture opened or ended by itself (`[Shift] Start=movement`), in order.
  var shiftChanges: [ShiftChange] = []

  /// `later` happened after this: one outcome for both.
  mutating func append(_ later: CaptureOutcome) {
    shift = later.shift
    events += later.events
    storeWrote = storeWrote || later.storeWrote
    diskFull = diskFull || later.diskFull
    shiftChanges += later.shiftChanges
  }
}
