/// `job.assign` and `job.cancel`: the job as it stands now, and whether the request changed
/// anything (false for a job sent again as it was).
public struct JobResult: Sendable, Hashable, Codable {
  public var job: WireJob
  public var changed: Bool

  public init(job: WireJob, changed: Bool) {
    self.job = job
    self.changed = changed
  }
}
