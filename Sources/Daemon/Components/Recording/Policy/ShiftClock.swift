import DashPilotCore
import FoundationEssentials

/// Dates a shift's start and end on the receiver's clock, the one its samples carry, so
/// the completed shift's window and its samples share a time base. The wall clock of a box
/// without an RTC can be years off (or stepped mid-shift); dated by it, a shift's window
/// would lie years from its drive and the uncovered-end rule would count a gap that is not
/// there.
///
/// The receiver's time now is the last kept fix's time carried forward on the monotonic
/// clock. Before any fix the wall clock is all there is: a start stamped that way is
/// provisional, and the first kept fix re-dates it (fix time minus the monotonic time
/// since the start) when the two disagree by more than the gap interval. Pure: every time
/// is passed in.
struct ShiftClock {
  /// The last kept fix: its time, and when it was kept on the monotonic clock.
  private(set) var anchor: (fixTime: Date, monotonic: TimeInterval)?
  /// A start stamped by the wall clock, waiting for a fix to check it.
  private(set) var provisionalStart: (shiftID: Int64, stamped: Date, monotonic: TimeInterval)?
  /// Disagreements up to this are left alone (the gap interval: below it the window
  /// cannot count a false gap).
  let tolerance: TimeInterval

  init(tolerance: TimeInterval) { self.tolerance = tolerance }

  /// The receiver's time at monotonic `now`, if a fix has been kept since the daemon started.
  func receiverTime(atMonotonic now: TimeInterval) -> Date? {
    anchor.map { $0.fixTime.addingTimeInterval(now - $0.monotonic) }
  }

  /// The stamp for a shift starting now: the receiver's time, else the wall clock
  /// (remembered as provisional once the shift has its id).
  func startStamp(wall: Date, monotonic: TimeInterval) -> Date {
    receiverTime(atMonotonic: monotonic) ?? wall
  }

  /// Notes that shift `id` started at `stamped`; provisional unless a fix dated it.
  mutating func shiftStarted(_ id: Int64, stamped: Date, monotonic: TimeInterval) {
    provisionalStart = anchor == nil ? (id, stamped, monotonic) : nil
  }

  /// Learns from a kept fix; returns the start shift `shiftID` should have instead of its
  /// provisional one (and by how much the wall clock was off), when they disagree by more
  /// than the tolerance.
  mutating func kept(fixAt fixTime: Date, monotonic: TimeInterval, shiftID: Int64?)
    -> (start: Date, wallClockError: TimeInterval)?
  {
    anchor = (fixTime, monotonic)
    guard let provisional = provisionalStart, provisional.shiftID == shiftID else { return nil }
    provisionalStart = nil
    let dated = fixTime.addingTimeInterval(provisional.monotonic - monotonic)
    let error = provisional.stamped.timeIntervalSince(dated)
    return abs(error) > tolerance ? (dated, error) : nil
  }

  /// The stamp for a shift ending now: the receiver's time, else the wall clock.
  func endStamp(wall: Date, monotonic: TimeInterval) -> Date {
    receiverTime(atMonotonic: monotonic) ?? wall
  }
}
