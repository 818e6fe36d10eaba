import FoundationEssentials

/// How a shift started, as every interface names it (`started_by`).
public enum ShiftStartCause: String, Sendable, Hashable, Codable, CaseIterable {
  /// `dashpilotctl shift start` (and every shift recorded before the box could start one
  /// itself).
  case manual
  /// The vehicle moved `[Shift] StartDistance` from where it stood (`ShiftPolicy`).
  case movement
  /// A track imported from another logger, stored whole.
  case imported = "import"

  /// "started by hand", "started on movement", "imported": what a person reads.
  public var phrase: String {
    switch self {
    case .manual: "started by hand"
    case .movement: "started on movement"
    case .imported: "imported"
    }
  }
}

/// How a shift ended, as every interface names it (`ended_by`).
public enum ShiftEndCause: String, Sendable, Hashable, Codable, CaseIterable {
  /// `dashpilotctl shift end`.
  case manual
  /// The vehicle stood still, the receiver reporting, for `[Shift] EndAfterStop`: the
  /// shift ends at its last moving fix.
  case stopped
  /// The vehicle stood still, the receiver reporting, inside `[Shift] EndAtPlace=` for
  /// `EndAfterStopAtPlace`: the shift ends at its last moving fix.
  case stoppedAtPlace = "stopped_at_place"
  /// No movement for `EndAfterStop` while capture was interrupted (box off, receiver
  /// unplugged, gpsd gone): judged at the next fix, the shift ends at its last kept fix.
  case captureLost = "capture_lost"
  /// `replay --shifts`: the log ended with the shift still open; it ends at its last fix.
  case endOfLog = "end_of_log"
  /// A track imported from another logger, stored whole.
  case imported = "import"

  /// "ended by hand", "ended after a stop", ...: what a person reads.
  public var phrase: String {
    switch self {
    case .manual: "ended by hand"
    case .stopped: "ended after a stop"
    case .stoppedAtPlace: "ended after a stop at its end place"
    case .captureLost: "ended when capture was lost"
    case .endOfLog: "open when the log ended"
    case .imported: "imported"
    }
  }
}
