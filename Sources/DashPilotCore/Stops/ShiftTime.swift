import FoundationEssentials

/// How a shift's time divides: moving, stopped with the receiver reporting, and not
/// captured. The three add up to the window. Each claims only what the rows show:
/// - not captured: the gaps the figure counts (`MeasuredRoute.gaps`, the uncovered ends of
///   the window included), where nothing is known of the vehicle;
/// - stopped: the stops (`StopPolicy`), standing still at least the minimum with the
///   receiver reporting; no claim about the engine (there is no ignition input);
/// - moving: the rest of the captured time, halts shorter than a stop included.
public struct ShiftTime: Sendable, Hashable {
  public var window: DateInterval
  public var moving: TimeInterval
  public var stopped: TimeInterval
  public var notCaptured: TimeInterval

  public init(window: DateInterval, moving: TimeInterval, stopped: TimeInterval, notCaptured: TimeInterval) {
    self.window = window
    self.moving = moving
    self.stopped = stopped
    self.notCaptured = notCaptured
  }

  /// The time of `window` (a completed shift's, or a running one's up to now) given the
  /// route measured with it and the stops found in it. A route with no position leaves the
  /// whole window not captured. Gaps and stops are clipped to the window, and never overlap
  /// (a stop lies inside a stretch).
  public init(window: DateInterval, route: MeasuredRoute, stops: [Stop]) {
    func within(_ from: Date, _ to: Date) -> TimeInterval {
      max(0, min(to, window.end).timeIntervalSince(max(from, window.start)))
    }
    let notCaptured =
      route.distance.usablePositions == 0
      ? window.duration : route.gaps.reduce(0) { $0 + within($1.from, $1.to) }
    let stopped = min(stops.reduce(0) { $0 + within($1.arrival, $1.departure) }, window.duration - notCaptured)
    self.init(
      window: window, moving: max(0, window.duration - notCaptured - stopped), stopped: max(0, stopped),
      notCaptured: notCaptured)
  }

  /// A shift's time from its rows: the route measured and the stops found with the shift's
  /// window, or for a running shift (no end yet) up to `now`.
  public init<C: Collection>(shift: Shift, rows: C, now: Date, policy: StopPolicy = StopPolicy())
  where C.Element == RouteSample {
    let window = shift.window ?? DateInterval(start: shift.startedAt, end: max(now, shift.startedAt))
    let route = policy.calculator.measure(rows, covering: window)
    self.init(window: window, route: route, stops: policy.stops(in: route, window: window))
  }
}
