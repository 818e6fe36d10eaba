import ControlProtocol
import DashPilotCore
import FoundationEssentials
import PlatformSupport

// Shifts that start and end by themselves (`[Shift] Start=movement`): one journal line and
// one event each, with the reason; and how the open shift stands, for status.
extension RecordingCoordinator {
  /// A shift capture opened or ended by itself.
  mutating func shiftChanged(_ change: ShiftChange, now: ClockReading) -> [RecordingAction] {
    switch change {
    case let .started(shift, at, displacement):
      shiftClock.shiftStarted(shift, stamped: at, monotonic: now.monotonic)
      return [
        .announce(
          EventReport(
            .shiftStarted(.init(shift: shift, startedBy: .movement, startedAt: at)),
            "shift \(shift) started on movement: \(Int(displacement.rounded())) m from where the vehicle stood; "
              + "its window starts at the movement's first fix, \(Self.time(at))"))
      ]
    case let .ended(shift, at, cause, distance):
      let summary = distance.map { figure.quality($0).summary } ?? "its figure could not be read"
      let limit = DurationText.spoken(endAfterStop)
      let message: String
      switch cause {
      case .stopped:
        message =
          "shift \(shift) ended after a stop: the vehicle stood still for \(limit); "
          + "it ends at its last moving fix, \(Self.time(at)): \(summary)"
      case .stoppedAtPlace:
        let (place, after) = endPlace ?? ("its end place", endAfterStop)
        message =
          "shift \(shift) ended after a stop at \(place): the vehicle stood still there for "
          + "\(DurationText.spoken(after)); it ends at its last moving fix, \(Self.time(at)): \(summary)"
      case .captureLost:
        message =
          "shift \(shift) ended: no fix showed the vehicle move for \(limit) and capture was interrupted; "
          + "it ends at its last kept fix, \(Self.time(at)): \(summary)"
      default:
        message = "shift \(shift) ended (\(cause.rawValue)), at \(Self.time(at)): \(summary)"
      }
      return [
        .announce(
          EventReport(
            .shiftEnded(.init(shift: shift, summary: summary, endedBy: cause, endedAt: at, distance: distance)), message
          ))
      ]
    }
  }

  /// The receiver's time now: the last kept fix's, carried on the monotonic clock (nil
  /// before a fix since the daemon started).
  func receiverTime(now: ClockReading) -> Date? {
    shiftClock.receiverTime(atMonotonic: now.monotonic)
  }

  /// How the open shift stands, for status: since when it has not moved and for how long
  /// by the receiver's clock, when it would end by itself, whether it waits for a fix.
  func standing(_ status: ShiftPolicy.Status?, now: ClockReading) -> ShiftSummary.Live {
    guard let status else { return ShiftSummary.Live() }
    let stoppedSeconds = status.stoppedSince.flatMap { since in
      receiverTime(now: now).map { max(0, $0.timeIntervalSince(since)) }
    }
    return ShiftSummary.Live(
      stoppedSince: status.stoppedSince, stoppedSeconds: stoppedSeconds, endsAfterStopSeconds: status.endsAfterStop,
      waitingForFix: status.waitingForFix)
  }

  private static func time(_ date: Date) -> String { UTCTimestamp.string(date) ?? "?" }
}
