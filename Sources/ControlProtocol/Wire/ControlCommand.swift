/// Every command the socket understands. The wire name is what a request's `cmd` holds.
public enum ControlCommand: String, Sendable, Hashable, Codable, CaseIterable {
  case status
  case shiftStart = "shift.start"
  case shiftEnd = "shift.end"
  case shifts
  case shiftShow = "shift.show"
  case export
  /// A shift's report: its stretches simplified for drawing, its gaps with their causes
  /// and, given a route, the moments guidance confirms the car left it.
  case report
  case `import`
  case routeLoad = "route.load"
  case routeClear = "route.clear"
  case navigate
  case events

  /// Whether the command changes what the daemon records or follows. Such commands are
  /// only for root, the daemon's own user and members of the socket group; anyone who can
  /// open the socket may read.
  public var changesState: Bool {
    switch self {
    case .shiftStart, .shiftEnd, .import, .routeLoad, .routeClear, .navigate: true
    case .status, .shifts, .shiftShow, .export, .report, .events: false
    }
  }
}
