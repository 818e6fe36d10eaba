/// `job.assign_all`: each job of the list in its order, whether the request queued it
/// (false for a job sent before as it is) and where it stands now; how many were queued
/// and how many were there before; and how many jobs not done the queue holds after.
public struct JobsAssignedResult: Sendable, Hashable, Codable {
  public struct Item: Sendable, Hashable, Codable {
    public var id: String
    public var changed: Bool
    /// `queued`, or for a job sent before, its state (`arrived`, `visited`, ...).
    public var state: String

    public init(id: String, changed: Bool, state: String) {
      self.id = id
      self.changed = changed
      self.state = state
    }
  }

  public var jobs: [Item]
  public var assigned: Int
  public var unchanged: Int
  public var queueLength: Int

  public init(jobs: [Item], queueLength: Int) {
    self.jobs = jobs
    assigned = jobs.filter(\.changed).count
    unchanged = jobs.count - assigned
    self.queueLength = queueLength
  }

  enum CodingKeys: String, CodingKey {
    case jobs, assigned, unchanged
    case queueLength = "queue_length"
  }
}
