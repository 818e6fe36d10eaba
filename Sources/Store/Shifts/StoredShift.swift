import DashPilotCore
import FoundationEssentials

/// A shift as the store holds it: the domain `Shift` plus what reproduces its figure (the
/// continuity limit it is measured with) and where its route came from.
public struct StoredShift: Sendable, Hashable, Identifiable {
  public enum Origin: Sendable, Hashable {
    /// Recorded by this box's capture.
    case recorded
    /// Imported from another logger's track; `source` is what the caller called it.
    case imported(source: String)
  }

  public var shift: Shift
  public var maximumSampleInterval: TimeInterval
  public var origin: Origin
  /// How it started, and how it ended (nil while it is open); nil when the file names a
  /// cause this build does not know (a newer daemon's).
  public var startedBy: ShiftStartCause?
  public var endedBy: ShiftEndCause?

  public init(
    shift: Shift, maximumSampleInterval: TimeInterval, origin: Origin,
    startedBy: ShiftStartCause? = nil, endedBy: ShiftEndCause? = nil
  ) {
    self.shift = shift
    self.maximumSampleInterval = maximumSampleInterval
    self.origin = origin
    self.startedBy = startedBy
    self.endedBy = endedBy
  }

  public var id: Int64 { shift.id }

  /// The calculator this shift is measured with.
  public var calculator: RouteMileageCalculator {
    RouteMileageCalculator(maximumSampleInterval: maximumSampleInterval)
  }
}
