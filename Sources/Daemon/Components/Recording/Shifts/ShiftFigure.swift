import ControlProtocol
import DashPilotCore
import FoundationEssentials
import Store

/// A shift's figure as the socket carries it, worded by `RouteQuality` in the configured
/// unit with POSIX separators: the daemon loads no locale data (no ICU); a reader's locale
/// is `dashpilotctl`'s business.
struct ShiftFigure {
  var unit: DistanceUnit

  func wireDistance(_ distance: RouteDistance) -> WireDistance { WireDistance(distance, unit: unit) }

  func quality(_ distance: RouteDistance) -> RouteQuality {
    RouteQuality(distance: distance, unit: unit, separators: .posix)
  }

  /// The row of `stored`, with how it started and ended; `live`, in status, how the open
  /// shift stands.
  func summary(of stored: StoredShift, distance: RouteDistance, live: ShiftSummary.Live? = nil) -> ShiftSummary {
    let quality = quality(distance)
    let shift = stored.shift
    return ShiftSummary(
      id: shift.id, startedAt: shift.startedAt, endedAt: shift.endedAt, startedBy: stored.startedBy,
      endedBy: stored.endedBy, distance: wireDistance(distance), summary: quality.summary, details: quality.details,
      spoken: quality.spoken, live: live)
  }
}
