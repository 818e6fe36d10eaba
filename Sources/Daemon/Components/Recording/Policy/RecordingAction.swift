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

/// What one input to capture did, for `RecordingCoordinator.captured`.
struct CaptureOutcome {
  /// The shift open after it, if any.
  var shift: Int64?
  var events: [CaptureEvent]
  /// Capture's tally before the fix that led to `events` (a session's counts start with
  /// the fix that started it); nil when no fix led to them.
  var statisticsBefore: CaptureStatistics?
  /// Capture's tally after.
  var statistics: CaptureStatistics
  /// Whether nothing is left pending in the store's batch (a kept sample was written).
  var batchIsWritten: Bool
  /// Whether the store's error, for a save that failed outside a fix (a timed flush), was
  /// a full disk: the one failure a restart cannot cure.
  var diskFull = false
  /// Shifts capture opened or ended by itself (`[Shift] Start=movement`), in order.
  var shiftChanges: [ShiftChange] = []
}
