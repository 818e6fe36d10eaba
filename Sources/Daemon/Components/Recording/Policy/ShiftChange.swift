import DashPilotCore
import FoundationEssentials

/// A shift that capture opened or ended by itself (`[Shift] Start=movement`), as the
/// recording coordinator is told of it.
enum ShiftChange: Hashable {
  /// Opened on movement: its window from `at` (the movement's first fix), `displacement`
  /// metres from where the vehicle stood.
  case started(shift: Int64, at: Date, displacement: Double)
  /// Ended at `at` (its last moving fix) because of `cause`, with its figure (nil when it
  /// could not be read).
  case ended(shift: Int64, at: Date, cause: ShiftEndCause, distance: RouteDistance?)
}
