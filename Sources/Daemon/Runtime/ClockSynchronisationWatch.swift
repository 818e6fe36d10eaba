import DashPilotCore

/// Says when the box's wall clock is, or stops being, synchronised (the kernel's word:
/// adjtimex). Fixes that come without a date are dated by that clock only while it is
/// (`DateByArrival=synchronised`), and a shift's start, end and windows, and what retention
/// may delete, are read from it; a box without a real-time clock starts with whatever time
/// it last saved. A person reading the journal learns it at start-up and at each change,
/// never once a second. Pure: the daemon passes each reading in.
struct ClockSynchronisationWatch {
  enum Change: Equatable {
    /// Not synchronised when the daemon first looked.
    case notSynchronisedAtStart
    case lost
    case gained
  }

  private(set) var synchronised: Bool?

  /// The change `synchronised` makes to what the watch last saw, if any.
  mutating func observe(synchronised now: Bool) -> Change? {
    defer { synchronised = now }
    switch (synchronised, now) {
    case (nil, false): return .notSynchronisedAtStart
    case (true?, false): return .lost
    case (false?, true): return .gained
    default: return nil
    }
  }

  /// The journal's sentence for `change`, under the configured `DateByArrival=`.
  static func sentence(_ change: Change, dateByArrival: ArrivalDating) -> String {
    let undated =
      switch dateByArrival {
      case .synchronised: "fixes that come without a date are not dated by their arrival meanwhile"
      case .always: "fixes that come without a date are still dated by their arrival (DateByArrival=always)"
      case .never: "fixes that come without a date are never dated by their arrival (DateByArrival=never)"
      }
    let consequence =
      "\(undated), and shift times are read from a clock that may be wrong: give the box a time source "
      + "(without a real-time clock, the receiver: /usr/share/doc/dashpilot/examples/chrony-gpsd.conf)"
    switch change {
    case .notSynchronisedAtStart:
      return "the system clock is not synchronised (the kernel says so): \(consequence)"
    case .lost:
      return "the system clock is no longer synchronised (the kernel says so): \(consequence)"
    case .gained:
      return "the system clock is synchronised now (the kernel says so)"
    }
  }
}
