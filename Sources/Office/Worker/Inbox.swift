import FoundationEssentials
import OfficeCore
import PlatformSupport

/// What the connection's reader thread hands the worker: each PUBLISH with when it arrived,
/// which connection it came by, and the judge's reading of it (done on the reader's thread,
/// while the worker waits for PostgreSQL to store the batch before). The broker's receive
/// maximum bounds how many wait here.
final class Inbox: @unchecked Sendable {
  // @unchecked: every member is read and changed under `condition`.
  struct Arrival: Sendable {
    var publish: MQTTPublish
    var judgement: MessageJudge.Judgement
    var receivedAt: Date
    var arrivedMonotonic: Double
    var connection: Int
  }

  private let condition = Condition()
  private var arrivals: [Arrival] = []
  private var woken = false

  func put(_ arrival: Arrival) {
    condition.withLock {
      arrivals.append(arrival)
      condition.signal()
    }
  }

  /// Wakes a `take` that is waiting (the worker is stopping, or a connection ended).
  func wake() {
    condition.withLock {
      woken = true
      condition.broadcast()
    }
  }

  /// Forgets what came by connection `connection`: it ended before they were stored, and
  /// the broker sends them again on the next one.
  func drop(connection: Int) {
    condition.withLock { arrivals.removeAll { $0.connection == connection } }
  }

  var count: Int { condition.withLock { arrivals.count } }

  /// The next batch: waits up to `idle` seconds for a first message, then until `maximum`
  /// are there or the first has waited `delay` seconds; empty when none came (or `wake`).
  func take(maximum: Int, delay: Double, idle: Double) -> [Arrival] {
    condition.withLock {
      let idleDeadline = Condition.deadline(after: idle)
      while arrivals.isEmpty, !woken {
        guard condition.wait(until: idleDeadline) else { break }
      }
      if let first = arrivals.first, !woken {
        let deadline = first.arrivedMonotonic + delay
        while arrivals.count < maximum, !woken, condition.wait(until: deadline) {}
      }
      woken = false
      let taken = Array(arrivals.prefix(maximum))
      arrivals.removeFirst(taken.count)
      return taken
    }
  }
}
