import DashPilotCore

/// Every request the socket understands, each with its checked arguments: a handler
/// switches on one value and finds what it needs in the case it matched.
///
/// To add a request: add its case here and its `kind` (with its wire name and whether it
/// changes state); the compiler then points at the two switches left to fill, how its
/// arguments are read (`ArgumentReader.read`) and written (`ControlCommand+Arguments`).
/// A request with more than an argument or two carries a struct of its own
/// (`ReportArguments`), which grows a field without touching any other case.
public enum ControlCommand: Sendable, Hashable {
  case status
  case shiftStart
  case shiftEnd
  case shifts(ShiftsArguments)
  case shiftShow(id: Int64)
  /// A shift's samples, stops and shift message queued again for the fleet, as new messages.
  case shiftResend(ShiftResendArguments)
  case export(id: Int64)
  /// A shift's report: its stretches simplified for drawing, its gaps with their causes
  /// and, given a route, the moments guidance confirms the car left it.
  case report(ReportArguments)
  case `import`(ImportArguments)
  case routeLoad(RouteLoadArguments)
  case routeClear
  case navigate(NavigateArguments)
  case events
  /// A consistent copy of the database, written by the daemon while it records.
  case backup(BackupArguments)
  /// A new places file, validated, written over the configured one and in effect at once.
  case placesLoad(PlacesLoadArguments)
  /// A job for the car: queued after those it has, once per id.
  case jobAssign(DeliveryJob)
  /// A list of jobs (a day's), queued in its order, all or none.
  case jobAssignAll(JobAssignAllArguments)
  /// Takes a job off the queue.
  case jobCancel(id: String)
  /// The queue, and the jobs done in this shift (or the last).
  case jobList

  /// Which request this is, without its arguments: what a component claims, what a
  /// configuration allows, and, as its raw value, what a request's `cmd` holds.
  public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
    case status
    case shiftStart = "shift.start"
    case shiftEnd = "shift.end"
    case shifts
    case shiftShow = "shift.show"
    case shiftResend = "shift.resend"
    case export
    case report
    case `import`
    case routeLoad = "route.load"
    case routeClear = "route.clear"
    case navigate
    case events
    case backup
    case placesLoad = "places.load"
    case jobAssign = "job.assign"
    case jobAssignAll = "job.assign_all"
    case jobCancel = "job.cancel"
    case jobList = "job.list"

    /// Whether the request changes what the daemon records or follows. Such requests are
    /// only for root, the daemon's own user and members of the socket group; anyone who
    /// can open the socket may read.
    public var changesState: Bool {
      switch self {
      // A backup writes a file as the daemon's user, a resend grows the outbox: only for
      // those who may change state.
      case .shiftStart, .shiftEnd, .import, .routeLoad, .routeClear, .navigate, .backup, .placesLoad, .jobAssign,
        .jobAssignAll, .jobCancel, .shiftResend:
        true
      case .status, .shifts, .shiftShow, .export, .report, .events, .jobList: false
      }
    }
  }

  public var kind: Kind {
    switch self {
    case .status: .status
    case .shiftStart: .shiftStart
    case .shiftEnd: .shiftEnd
    case .shifts: .shifts
    case .shiftShow: .shiftShow
    case .shiftResend: .shiftResend
    case .export: .export
    case .report: .report
    case .import: .import
    case .routeLoad: .routeLoad
    case .routeClear: .routeClear
    case .navigate: .navigate
    case .events: .events
    case .backup: .backup
    case .placesLoad: .placesLoad
    case .jobAssign: .jobAssign
    case .jobAssignAll: .jobAssignAll
    case .jobCancel: .jobCancel
    case .jobList: .jobList
    }
  }

  /// The wire name (`cmd`), which is also how messages name the request.
  public var name: String { kind.rawValue }
}
