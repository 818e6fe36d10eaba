import ControlProtocol
import DashPilotCore
import FoundationEssentials
import Store

// `job.assign`, `job.assign_all`, `job.cancel` and `job.list`: the queue (`JobQueue`) and
// the ledger change together, or the request is refused with nothing touched.
extension JobsComponent {
  public func handle(_ request: ControlRequest, responder: Responder) {
    guard let store else { return responder.fail(.unavailable, "the store is not open") }
    do {
      switch request.command {
      case .jobAssign(let job): try assign(job, store, responder)
      case .jobAssignAll(let list): try assign(all: list.jobs, store, responder)
      case .jobCancel(let id): try cancel(id, store, responder)
      case .jobList: try list(store, responder)
      default: responder.fail(.unavailable, "\(name) does not answer \(request.command.name)")
      }
    } catch {
      responder.fail(.failed, "the store failed: \(error)")
    }
  }

  private func assign(_ job: DeliveryJob, _ store: SampleStore, _ responder: Responder) throws {
    let existing = try store.read { (transaction) throws(StoreError) in try ledger.job(id: job.id, in: transaction) }
    if let existing {
      // Once per id: the same job again is answered as it stands; other content is refused.
      guard existing.job == job else {
        return responder.fail(
          .conflict,
          "job \(job.id) was assigned before with other content (\"\(existing.job.name)\", \(existing.state.rawValue)); "
            + "a changed job needs a new id")
      }
      return responder.succeed(JobResult(job: WireJob(existing), changed: false))
    }
    var queue = self.queue
    do {
      _ = try queue.assign(job)
    } catch .full(let bound) {
      return responder.fail(
        .queueFull, "the queue holds \(bound) jobs not done, its bound; cancel one (job.cancel) before adding another")
    } catch {
      return responder.fail(.conflict, "job \(job.id) is queued with other content")
    }
    _ = try store.transaction("assign a job") { (transaction) throws(StoreError) in
      try ledger.assign(job, in: transaction)
    }
    self.queue = queue
    context?.logger.info(
      "jobs: job \(job.id) (\(job.name)) queued, \(queue.entries.count) not done", fields: LogFields(reason: "job"))
    responder.succeed(JobResult(job: WireJob(StoredJob(job: job, state: .queued)), changed: true))
  }

  /// A list, all or none: what the ledger holds under its ids is read first (a job done or
  /// cancelled is known there, not in the queue), the queue decides, and the new jobs are
  /// written in one transaction.
  private func assign(all jobs: [DeliveryJob], _ store: SampleStore, _ responder: Responder) throws {
    let name = ControlCommand.Kind.jobAssignAll.rawValue
    guard !jobs.isEmpty else { return responder.fail(.badArguments, "\(name): \"jobs\" holds no job") }
    let stored = try store.read { (transaction) throws(StoreError) -> [String: StoredJob] in
      var found: [String: StoredJob] = [:]
      for id in Set(jobs.map(\.id)) { found[id] = try ledger.job(id: id, in: transaction) }
      return found
    }
    var queue = self.queue
    let queued: [Bool]
    do {
      queued = try queue.assign(all: jobs) { stored[$0]?.job }
    } catch .conflicts(let conflicts) {
      let problems = conflicts.map { conflict in
        let label = JobArguments.label(conflict.index, id: conflict.job.id)
        if let earlier = conflict.earlierIndex {
          return "\(label): the list gives job \(conflict.job.id) before, as jobs[\(earlier)], with other content"
        }
        let state = stored[conflict.job.id]?.state.rawValue ?? StoredJob.State.queued.rawValue
        return "\(label): assigned before with other content (\"\(conflict.existing.name)\", \(state)); "
          + "a changed job needs a new id"
      }
      return responder.fail(.conflict, "\(name): " + JobArguments.refusal(problems, of: jobs.count))
    } catch .full(let bound, let notDone, let adding) {
      return responder.fail(
        .queueFull,
        "\(name): the queue holds \(notDone) jobs not done and the list adds \(adding), past its bound of \(bound); "
          + "none assigned: cancel some (job.cancel) or send fewer")
    }
    let new = zip(jobs, queued).filter(\.1).map(\.0)
    if !new.isEmpty {
      try store.transaction("assign \(new.count) jobs") { (transaction) throws(StoreError) in
        for job in new { try ledger.assign(job, in: transaction) }
      }
    }
    self.queue = queue
    let result = JobsAssignedResult(
      jobs: zip(jobs, queued).map { job, isNew in
        .init(id: job.id, changed: isNew, state: isNew ? StoredJob.State.queued.rawValue : state(of: job, stored))
      }, queueLength: queue.entries.count)
    context?.logger.info(
      "jobs: a list of \(jobs.count) jobs: \(result.assigned) queued, \(result.unchanged) sent before as they are; "
        + "\(queue.entries.count) not done", fields: LogFields(reason: "job"))
    responder.succeed(result)
  }

  /// Where a job sent before stands: the ledger's state, or queued for one the same list gave before.
  private func state(of job: DeliveryJob, _ stored: [String: StoredJob]) -> String {
    stored[job.id]?.state.rawValue ?? StoredJob.State.queued.rawValue
  }

  private func cancel(_ id: String, _ store: SampleStore, _ responder: Responder) throws {
    guard let entry = queue.entries.first(where: { $0.job.id == id }) else {
      let done = try store.read { (transaction) throws(StoreError) in try ledger.job(id: id, in: transaction) }
      guard let done else { return responder.fail(.notFound, "no job \(id) is queued") }
      // Cancelling a cancelled job again changes nothing; a done job stays done.
      guard done.state == .cancelled else {
        return responder.fail(
          .conflict, "job \(id) is \(done.state == .visited ? "visited" : "not reached, its shift over") already")
      }
      return responder.succeed(JobResult(job: WireJob(done), changed: false))
    }
    let cancelled = StoredJob(job: entry.job, state: .cancelled)
    try store.transaction("cancel a job") { (transaction) throws(StoreError) in
      try ledger.update(cancelled, in: transaction)
    }
    _ = queue.cancel(id: id)
    context?.logger.info("jobs: job \(id) (\(entry.job.name)) cancelled", fields: LogFields(reason: "job"))
    responder.succeed(JobResult(job: WireJob(cancelled), changed: true))
  }

  /// The queue as it stands, and the jobs done in the open shift (or, between shifts, the
  /// last shift any job was done in): a bounded read of the ledger's indexes.
  private func list(_ store: SampleStore, _ responder: Responder) throws {
    let openShift = try store.openShift()?.id
    let (shift, done) = try store.read { (transaction) throws(StoreError) -> (Int64?, [StoredJob]) in
      var shift = openShift
      if shift == nil { shift = try ledger.lastShiftWithDoneJobs(in: transaction) }
      guard let shift else { return (nil, []) }
      return (shift, try ledger.done(inShift: shift, in: transaction))
    }
    let queued = queue.entries.map { entry in
      WireJob(
        StoredJob(
          job: entry.job, state: entry.arrival == nil ? .queued : .arrived,
          shift: entry.arrival == nil ? nil : openShift,
          evidence: entry.arrival.map(StoredJob.Evidence.init)))
    }
    responder.succeed(JobsResult(queue: queued, shift: shift, done: done.map(WireJob.init)))
  }
}
