import FoundationEssentials

/// What happened to a job, for the office (`job.arrived`, `job.visited`, `job.not_reached`).
public enum JobOutcome: Sendable, Hashable {
  /// A stop began within the job's radius: the car is there.
  case arrived(DeliveryJob, JobVisit)
  /// The stop there ended: the car left, the visit's evidence complete. The job is done.
  case visited(DeliveryJob, JobVisit)
  /// The shift ended with the job never reached. The job is done.
  case notReached(DeliveryJob)
}

/// Why a job was refused, nothing else touched.
public enum JobRefusal: Error, Sendable, Hashable {
  /// Another job holds the id, with other content.
  case conflict(existing: DeliveryJob)
  /// The queue holds `bound` jobs not done yet.
  case full(bound: Int)
}

/// The jobs the car has been given and not yet done, in the order they came, and the one
/// rule of what a stop means for them: a job is arrived when a stop (`StopPolicy`'s, at
/// least its minimum long) begins within its radius, visited when that stop ends, and not
/// reached when the shift ends without either. Driving through a job's radius, or standing
/// there less than a stop, is no visit. Pure: the stops and the shift's end are told, the
/// outcomes returned, for the daemon to store, announce and act on.
public struct JobQueue: Sendable, Hashable {
  /// A job not done yet, and the stop it was arrived in, once one began there.
  public struct Entry: Sendable, Hashable {
    public var job: DeliveryJob
    public var arrival: JobVisit?

    public init(job: DeliveryJob, arrival: JobVisit? = nil) {
      self.job = job
      self.arrival = arrival
    }
  }

  /// A working day's stops with room to spare; past it an office's loop sending the same
  /// list again is refused rather than grown without end.
  public static let bound = 200

  public internal(set) var entries: [Entry]

  public init(entries: [Entry] = []) { self.entries = entries }

  /// The next job to drive to: the first one not arrived at.
  public var next: DeliveryJob? { entries.first { $0.arrival == nil }?.job }

  /// Queues `job` at the end. The same job again (same id, same content) changes nothing
  /// and returns false; another job under a queued id, or a full queue, is refused.
  public mutating func assign(_ job: DeliveryJob) throws(JobRefusal) -> Bool {
    if let existing = entries.first(where: { $0.job.id == job.id }) {
      guard existing.job == job else { throw .conflict(existing: existing.job) }
      return false
    }
    guard entries.count < Self.bound else { throw .full(bound: Self.bound) }
    entries.append(Entry(job: job))
    return true
  }

  /// Takes job `id` off the queue; nil when none is queued under it.
  public mutating func cancel(id: String) -> Entry? {
    guard let index = entries.firstIndex(where: { $0.job.id == id }) else { return nil }
    return entries.remove(at: index)
  }

  /// A stop began (it has lasted the minimum): every queued job within its radius is
  /// arrived, in queue order.
  public mutating func stopStarted(_ stop: Stop) -> [JobOutcome] {
    var outcomes: [JobOutcome] = []
    for index in entries.indices where entries[index].arrival == nil && entries[index].job.isReached(at: stop.position)
    {
      let visit = JobVisit(job: entries[index].job, stop: stop)
      entries[index].arrival = visit
      outcomes.append(.arrived(entries[index].job, visit))
    }
    return outcomes
  }

  /// A stop ended for good: the jobs arrived in it are visited, with the whole stop as
  /// evidence. A queued job within its radius that was not arrived (it came while the car
  /// stood there, or the stop began with the shift) is arrived and visited at once.
  public mutating func stopEnded(_ stop: Stop) -> [JobOutcome] {
    var outcomes: [JobOutcome] = []
    var done: Set<String> = []
    for entry in entries {
      if let arrival = entry.arrival {
        guard Self.isSameStop(arrival.stop, stop) else { continue }
      } else {
        guard entry.job.isReached(at: stop.position) else { continue }
        outcomes.append(.arrived(entry.job, JobVisit(job: entry.job, stop: stop)))
      }
      outcomes.append(.visited(entry.job, JobVisit(job: entry.job, stop: stop)))
      done.insert(entry.job.id)
    }
    entries.removeAll { done.contains($0.job.id) }
    return outcomes
  }

  /// The shift ended: every job not arrived at was not reached; one arrived at whose stop
  /// was not told as ended (a shift that ended by itself at its last move) is visited with
  /// the stop as it was last seen. The queue is empty after.
  public mutating func shiftEnded() -> [JobOutcome] {
    defer { entries = [] }
    return entries.map { entry in
      entry.arrival.map { .visited(entry.job, $0) } ?? .notReached(entry.job)
    }
  }

  /// Whether `ended` is the stop `started` was read from when it began: the same arrival,
  /// or, for a stop whose start the end reads differently (a shift's start), an arrival
  /// within the ended stop.
  private static func isSameStop(_ started: Stop, _ ended: Stop) -> Bool {
    started.arrival == ended.arrival || (ended.arrival...ended.departure).contains(started.arrival)
  }
}
