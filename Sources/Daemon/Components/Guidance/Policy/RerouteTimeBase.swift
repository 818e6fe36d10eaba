import FoundationEssentials
import PlatformSupport

/// `RerouteCoordinator` keeps time in `Date`s and only ever compares the ones it is given.
/// The daemon gives it the monotonic clock, written as a `Date` that many seconds after the
/// reference date, so that a wall-clock step (a box without an RTC setting its clock from
/// the receiver, or NTP) can neither delay nor hasten a retry; the deadlines it answers with
/// are turned back into wall-clock times only to be told.
extension ClockReading {
  /// This reading on the coordinator's time base.
  var rerouteTime: Date { Date(timeIntervalSinceReferenceDate: monotonic) }

  /// The wall-clock time of `time`, a time on the coordinator's base.
  func wallTime(ofRerouteTime time: Date) -> Date {
    wall.addingTimeInterval(time.timeIntervalSince(rerouteTime))
  }
}
