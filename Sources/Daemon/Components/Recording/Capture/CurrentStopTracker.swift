import DashPilotCore
import FoundationEssentials

/// The stop the vehicle stands in now, for `status`, read by `StopPolicy` (the one
/// `shift show` uses) from the last rows capture kept: only the tail that can still belong
/// to a stop going on is held, so status costs nothing that grows with the shift. While the
/// vehicle stands the tail is the stop's rows (a held sample a minute), from the row it
/// arrived at; while it moves, the last two rows.
struct CurrentStopTracker {
  let policy: StopPolicy
  private(set) var tail: [RouteSample] = []
  /// The same policy with no minimum: a stop going on is followed from its first row,
  /// before it is long enough to count.
  private let following: StopPolicy

  init(policy: StopPolicy) {
    self.policy = policy
    var following = policy
    following.minimumStop = 0
    self.following = following
  }

  /// A row capture kept (a move or a held sample), in time order.
  mutating func kept(_ sample: RouteSample) {
    if let last = tail.last, sample.timestamp <= last.timestamp { return }
    tail.append(sample)
    guard let standing = ongoing(now: sample.timestamp) else {
      tail.removeFirst(max(0, tail.count - 2))
      return
    }
    // Keep the row before the arrival too, so the stop is still seen arriving.
    let arrivalRow = tail.lastIndex { $0.timestamp <= standing.arrival } ?? 0
    tail.removeFirst(max(0, arrivalRow - 1))
  }

  /// The stop going on at `now` (the receiver's time), once it has lasted the minimum.
  func current(now: Date) -> Stop? {
    guard let stop = ongoing(now: now), stop.duration >= policy.minimumStop else { return nil }
    return stop
  }

  private func ongoing(now: Date) -> Stop? {
    guard let stop = following.stops(in: tail, now: now).last, stop.end == .ongoing else { return nil }
    return stop
  }
}
