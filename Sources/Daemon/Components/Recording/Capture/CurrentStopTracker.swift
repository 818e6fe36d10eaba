import DashPilotCore
import FoundationEssentials

/// The stop the vehicle stands in now, for `status`, and the stop that has just ended, for
/// `stop.ended`, read by `StopPolicy` (the one `shift show` uses) from the last rows
/// capture kept: only the tail that can still belong to a stop going on, or one left but
/// not yet over, is held, so neither costs anything that grows with the shift. While the
/// vehicle stands the tail is the stop's rows (a held sample a minute), from the row it
/// arrived at; while it moves, the last two rows.
struct CurrentStopTracker {
  let policy: StopPolicy
  private(set) var tail: [RouteSample] = []
  /// The same policy with no minimum: a stop going on is followed from its first row,
  /// before it is long enough to count.
  private let following: StopPolicy
  /// The departure of the last stop told as ended, so that none is told twice.
  private var lastEnded: Date?
  /// The arrival of the last stop told as started, so that none is told twice.
  private var lastStarted: Date?
  /// When the shift capture runs for began, once told (`shiftStarted`): a stop the vehicle
  /// stood in from its first row began with the shift, as `shift show` reads it, and none
  /// that arrived before is told. The far future between shifts; nil for a shift resumed.
  private(set) var shiftStart: Date?

  init(policy: StopPolicy) {
    self.policy = policy
    var following = policy
    following.minimumStop = 0
    self.following = following
  }

  /// A row capture kept (a move or a held sample), in time order; the stop it ended for
  /// good (`StopPolicy.isOver`), if one of at least the minimum did: the very stop
  /// `shift show` lists, read by the same policy from the same rows.
  @discardableResult
  mutating func kept(_ sample: RouteSample) -> Stop? {
    if let last = tail.last, sample.timestamp <= last.timestamp { return nil }
    tail.append(sample)
    // Rows that are all moves hold no stop but the one the vehicle may stand in from the
    // last of them on (the policy's reading when it is asked): none ends, and the tail is
    // the last two rows. While the vehicle drives, that is every kept row, and asking the
    // policy for it (a walk of three rows) was 7 % of the loop at 10 Hz (`bench e2e`).
    if !tail.contains(where: { policy.isStanding($0) || !RouteMileageCalculator.isMeasurable($0) }) {
      tail.removeFirst(max(0, tail.count - 2))
      return nil
    }
    let stops = following.stops(in: tail, now: sample.timestamp)
    var ended: Stop?
    if let over = stops.last(where: { $0.end != .ongoing }), policy.isOver(over, latest: sample) {
      let left = withShiftStart(over, now: sample.timestamp)
      if left.duration >= policy.minimumStop, lastEnded.map({ left.departure > $0 }) ?? true {
        ended = left
        lastEnded = left.departure
      }
    }
    guard let open = stops.last, open.end == .ongoing || !policy.isOver(open, latest: sample) else {
      tail.removeFirst(max(0, tail.count - 2))
      return ended
    }
    // Keep the row before the arrival too, so the stop is still seen arriving.
    let arrivalRow = tail.lastIndex { $0.timestamp <= open.arrival } ?? 0
    tail.removeFirst(max(0, arrivalRow - 1))
    return ended
  }

  /// A shift began at `start` (the vehicle may stand): the rows before it are let go.
  mutating func shiftStarted(at start: Date) {
    tail.removeAll { $0.timestamp < start }
    shiftStart = start
  }

  /// `stop` as the shift's window reads it, when the rows it was read from begin at the
  /// shift's start: the policy again, over the same rows, with the window's start.
  private func withShiftStart(_ stop: Stop, now: Date) -> Stop {
    guard case .recordingBegan = stop.start, let start = shiftStart, start <= now else { return stop }
    let window = DateInterval(start: start, end: now)
    return policy.stops(in: tail, window: window).first { $0.departure == stop.departure } ?? stop
  }

  /// The stop the end of a shift cut (the vehicle stood when `window` ended), if one of at
  /// least the minimum did, as `shift show` lists it: the policy on the rows within the
  /// shift's window. The rows are let go, and none is told until a shift starts again: the
  /// next shift's stops are its own.
  mutating func shiftEnded(_ window: DateInterval) -> Stop? {
    defer { (tail, shiftStart) = ([], .distantFuture) }
    guard let stop = policy.stops(in: tail.filter { $0.timestamp <= window.end }, window: window).last,
      stop.end == .shiftEnded, lastEnded.map({ stop.departure > $0 }) ?? true
    else { return nil }
    lastEnded = stop.departure
    return stop
  }

  /// The stop going on at `now`, the first time it has lasted the minimum (`stop.started`);
  /// nil before, after, and for one told already.
  mutating func started(now: Date) -> Stop? {
    guard let stop = current(now: now), lastStarted.map({ stop.arrival > $0 }) ?? true,
      lastEnded.map({ stop.arrival >= $0 }) ?? true
    else { return nil }
    lastStarted = stop.arrival
    return withShiftStart(stop, now: now)
  }

  /// The stop going on at `now` (the receiver's time), once it has lasted the minimum.
  func current(now: Date) -> Stop? {
    // A stop read from the tail lies within it (it arrives at a row of the tail and goes on
    // until `now` at most), so a tail shorter than the minimum holds none to read: while the
    // vehicle moves, that is every kept row's, and the policy is not asked twice for it.
    guard let first = tail.first, let last = tail.last,
      max(now, last.timestamp).timeIntervalSince(first.timestamp) >= policy.minimumStop
    else { return nil }
    guard let stop = ongoing(now: now), stop.duration >= policy.minimumStop else { return nil }
    return stop
  }

  private func ongoing(now: Date) -> Stop? {
    guard let stop = following.stops(in: tail, now: now).last, stop.end == .ongoing else { return nil }
    return stop
  }
}
