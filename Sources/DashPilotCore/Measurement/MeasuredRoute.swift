import FoundationEssentials

/// A route as the measurement walked it: the figure, and the stretches and gaps behind it,
/// each with its times. What `shift show` lists and a report draws, from the same walk that
/// produced the figure, so a picture can never disagree with the counts beneath it.
public struct MeasuredRoute: Sendable, Hashable {
  public var distance: RouteDistance
  /// The unbroken stretches of capture, in time order. A stretch of one position (a lone
  /// fix between two gaps) is here too: it was captured, but it contributed no distance, so
  /// `distance.segments` does not count it.
  public var stretches: [RouteStretch]
  /// Every gap `distance.gaps` counts, in time order: an uncovered start of the window
  /// first, then the gap between each stretch and the next, then an uncovered end.
  public var gaps: [RouteGap]

  public init(distance: RouteDistance, stretches: [RouteStretch], gaps: [RouteGap]) {
    self.distance = distance
    self.stretches = stretches
    self.gaps = gaps
  }

  /// The gaps between positions: the one after stretch `i` is element `i`.
  public var gapsBetweenStretches: [RouteGap] { gaps.filter(\.isBetweenPositions) }
}

/// One unbroken stretch of capture: consecutive positions the walk found continuous.
public struct RouteStretch: Sendable, Hashable {
  public var samples: [RouteSample]

  public init(samples: [RouteSample]) { self.samples = samples }

  public var from: Date? { samples.first?.timestamp }
  public var to: Date? { samples.last?.timestamp }

  /// Whether it contributed to `RouteDistance.segments`: two positions or more.
  public var contributes: Bool { samples.count >= 2 }
}

extension RouteMileageCalculator {
  /// The whole route walked once, in the calculator's order, keeping what the walk saw:
  /// its figure is exactly `distance(of:covering:)`'s, and each stretch and gap is where
  /// the accumulator found it.
  public func measure<C: Collection>(_ samples: C, covering window: DateInterval? = nil) -> MeasuredRoute
  where C.Element == RouteSample {
    var walk = RouteMileageAccumulator(maximumSampleInterval: maximumSampleInterval)
    var stretches: [RouteStretch] = []
    var gaps: [RouteGap] = []
    var current: [RouteSample] = []
    for sample in Self.ordered(samples) {
      switch walk.extend(with: sample) {
      case .skipped: continue
      case .began, .continued: current.append(sample)
      case .broke(let gap):
        stretches.append(RouteStretch(samples: current))
        gaps.append(gap)
        current = [sample]
      }
    }
    if !current.isEmpty { stretches.append(RouteStretch(samples: current)) }
    let ends = walk.windowGaps(covering: window)
    if let start = ends.start { gaps.insert(start, at: 0) }
    if let end = ends.end { gaps.append(end) }
    return MeasuredRoute(distance: walk.distance(covering: window), stretches: stretches, gaps: gaps)
  }
}
