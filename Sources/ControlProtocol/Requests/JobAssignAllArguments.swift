import DashPilotCore

/// `job.assign_all`: a list of jobs (a day's, as dispatch software sends its manifest),
/// queued in the list's order, all or none, and answered once. On the socket a list longer
/// than one 64 KiB line holds is sent in parts (`more`), assembled before it is judged; a
/// fleet command carries it whole.
public struct JobAssignAllArguments: Sendable, Hashable {
  public var jobs: [DeliveryJob]
  public var more: Bool

  public init(jobs: [DeliveryJob], more: Bool = false) {
    self.jobs = jobs
    self.more = more
  }
}

extension JobAssignAllArguments: MultiPartArguments {
  public var elements: [DeliveryJob] {
    get { jobs }
    set { jobs = newValue }
  }
  public static var elementsName: String { "jobs" }
  public static var maximumElements: Int? { JobQueue.bound }
  public func mismatch(with part: JobAssignAllArguments) -> String? { nil }
  public var command: ControlCommand { .jobAssignAll(self) }
}
