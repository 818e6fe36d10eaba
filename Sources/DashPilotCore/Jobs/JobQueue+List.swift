/// Why a list of jobs was refused whole (`JobQueue.assign(all:known:)`), nothing touched.
public enum JobListRefusal: Error, Sendable, Hashable {
  /// Jobs under an id already used with other content, each by its index in the list.
  case conflicts([JobConflict])
  /// The new jobs would make more not done than the bound: `queued` are, `adding` would come.
  case full(bound: Int, queued: Int, adding: Int)
}

/// A job of a list under an id that holds other content: in the queue or the ledger
/// (`existing`), or given by an earlier job of the same list (`earlierIndex`).
public struct JobConflict: Sendable, Hashable {
  /// Its index in the list, from 0.
  public var index: Int
  public var job: DeliveryJob
  public var existing: DeliveryJob
  public var earlierIndex: Int?

  public init(index: Int, job: DeliveryJob, existing: DeliveryJob, earlierIndex: Int? = nil) {
    self.index = index
    self.job = job
    self.existing = existing
    self.earlierIndex = earlierIndex
  }
}

extension JobQueue {
  /// Queues `jobs` at the end in the list's order, all or none (a day's manifest): each one
  /// is queued, or, sent before as it is (queued, known, or earlier in the same list),
  /// changes nothing, as `assign` has it for one job. `known` gives the job an id holds
  /// outside the queue (done or cancelled, from the daemon's ledger). Refused whole when
  /// any job is another under a used id, or when the new ones would pass the bound.
  /// Returns, for each job, whether it was queued.
  public mutating func assign(all jobs: [DeliveryJob], known: (String) -> DeliveryJob? = { _ in nil })
    throws(JobListRefusal) -> [Bool]
  {
    var queued: [Bool] = []
    var conflicts: [JobConflict] = []
    var firstIndex: [String: Int] = [:]
    for (index, job) in jobs.enumerated() {
      if let earlier = firstIndex[job.id] {
        if jobs[earlier] != job {
          conflicts.append(JobConflict(index: index, job: job, existing: jobs[earlier], earlierIndex: earlier))
        }
        queued.append(false)
        continue
      }
      firstIndex[job.id] = index
      let existing = entries.first { $0.job.id == job.id }?.job ?? known(job.id)
      if let existing, existing != job {
        conflicts.append(JobConflict(index: index, job: job, existing: existing))
      }
      queued.append(existing == nil)
    }
    guard conflicts.isEmpty else { throw .conflicts(conflicts) }
    let adding = queued.filter { $0 }.count
    guard entries.count + adding <= Self.bound else {
      throw .full(bound: Self.bound, queued: entries.count, adding: adding)
    }
    for (job, isNew) in zip(jobs, queued) where isNew { entries.append(Entry(job: job)) }
    return queued
  }
}
