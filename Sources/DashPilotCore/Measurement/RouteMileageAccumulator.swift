import FoundationEssentials

/// The pairwise walk over a route, remembering where it reached so a growing route can be
/// extended rather than walked again. `RouteMileageCalculator` is this same walk fed
/// everything at once: there is one implementation of continuity, gaps and usable
/// positions.
public struct RouteMileageAccumulator: Sendable, Hashable {
  /// Two positions further apart than this are not continuous, even in one session.
  public let maximumSampleInterval: TimeInterval

  public private(set) var metres: Double = 0
  public private(set) var segments: Int = 0
  public private(set) var gaps: Int = 0
  public private(set) var usablePositions: Int = 0
  public private(set) var usesInferredContinuity = false
  public private(set) var positionsWithAssumedAccuracy: Int = 0
  public private(set) var positionsDatedByArrival: Int = 0
  /// The first and last positions consumed.
  public var first: RouteSample? { usablePositions > 0 ? firstPosition : nil }
  public var last: RouteSample? { usablePositions > 0 ? lastPosition : nil }
  /// The time of the last position consumed, read without copying the position.
  public var lastTimestamp: Date? { usablePositions > 0 ? lastPosition.timestamp : nil }
  /// What `first` and `last` hold once a position was consumed (`usablePositions` > 0),
  /// `nowhere` before. Not optionals: every row of a shift replaces `lastPosition`, and an
  /// optional of a type this size is copied and destroyed through its value witnesses.
  private var firstPosition = Self.nowhere
  private var lastPosition = Self.nowhere
  /// The cosine of `lastPosition`'s latitude when the last step measured it, for the next.
  private var lastCosineOfLatitude: Double?
  private static let nowhere = RouteSample(
    timestamp: Date(timeIntervalSince1970: 0), coordinate: GeoCoordinate(latitude: 0, longitude: 0),
    horizontalAccuracy: 0, captureSessionID: nil)
  /// Whether the segment ending at `last` has already been counted as contributing.
  private var currentSegmentCounted = false

  public init(maximumSampleInterval: TimeInterval = RouteMileageCalculator.defaultMaximumSampleInterval) {
    self.maximumSampleInterval = maximumSampleInterval
  }

  /// Walks `samples` in the order given. A position that cannot be on Earth is skipped; a
  /// position at or before the last one consumed is not counted (extension runs forwards
  /// only, which is also what collapses equal timestamps).
  public mutating func extend<S: Sequence>(with samples: S) where S.Element == RouteSample {
    for sample in samples { extend(with: sample) }
  }

  /// Walks one position and says what it did: the one place a gap is seen, so whoever needs
  /// the stretches and gaps themselves (`RouteMileageCalculator.measure`) observes this.
  /// The position is consumed: the walk keeps it as its last without copying it.
  @discardableResult
  public mutating func extend(with sample: consuming RouteSample) -> RouteWalkStep {
    guard RouteMileageCalculator.isMeasurable(sample) else { return .skipped }
    let hasPrevious = usablePositions > 0
    if hasPrevious, sample.timestamp <= lastPosition.timestamp { return .skipped }
    // A position with no session has no recorded continuity: every link to it is inferred.
    if sample.captureSessionID == nil { usesInferredContinuity = true }
    if sample.isAccuracyAssumed { positionsWithAssumedAccuracy += 1 }
    if sample.isDatedByArrival { positionsDatedByArrival += 1 }
    guard hasPrevious else {
      firstPosition = copy sample
      lastPosition = sample
      lastCosineOfLatitude = nil
      usablePositions = 1
      return .began
    }
    usablePositions += 1
    let link = Self.link(
      from: lastPosition, cosineOfLatitude: lastCosineOfLatitude, to: sample,
      maximumSampleInterval: maximumSampleInterval)
    lastPosition = sample
    switch link {
    case .continued(let metres, let cosineOfLatitude):
      self.metres += metres
      lastCosineOfLatitude = cosineOfLatitude
      if !currentSegmentCounted {
        segments += 1
        currentSegmentCounted = true
      }
      return .continued
    case .broken(let gap):
      lastCosineOfLatitude = nil
      gaps += 1
      currentSegmentCounted = false
      return .broke(gap)
    }
  }

  /// What joins `previous` to the next position walked, `sample`.
  enum Link {
    /// The stretch goes on, this many metres further; with the cosine of the new last
    /// position's latitude when the step measured it.
    case continued(metres: Double, cosineOfLatitude: Double?)
    case broken(RouteGap)
  }

  /// `cosineOfLatitude` is that of `previous`, when known.
  static func link(
    from previous: RouteSample, cosineOfLatitude: Double?, to sample: RouteSample,
    maximumSampleInterval: TimeInterval
  ) -> Link {
    // Two positions are continuous when they share a capture session (or both have none,
    // when continuity is inferred) and are at most `maximumSampleInterval` apart.
    let sameSession = previous.captureSessionID == sample.captureSessionID
    guard sameSession, sample.timestamp.timeIntervalSince(previous.timestamp) <= maximumSampleInterval else {
      // Different sessions: capture was interrupted, and the earlier one's end says why.
      // The same session too far apart: fixes stopped being kept.
      let kind: RouteGap.Kind =
        sameSession ? .noFixes : .sessionChanged(ended: previous.captureSessionID, began: sample.captureSessionID)
      return .broken(RouteGap(kind: kind, from: previous.timestamp, to: sample.timestamp))
    }
    // A held sample continues the stretch (capture went on while the vehicle stood still)
    // without distance: capture judged the move to it the receiver's wander.
    // (Adding 0 leaves the sum exactly as it was.)
    if sample.isHeld { return .continued(metres: 0, cosineOfLatitude: nil) }
    let step = GeographicDistance.metres(
      from: previous.coordinate,
      cosineOfLatitude: cosineOfLatitude ?? GeographicDistance.cosineOfLatitude(previous.coordinate),
      to: sample.coordinate)
    return .continued(metres: step.metres, cosineOfLatitude: step.cosineOfLatitudeB)
  }

  /// The distance walked so far. With the shift's window (a completed shift), a route that
  /// starts or stops more than `maximumSampleInterval` inside it has a gap at that end. A
  /// running shift is measured with no window.
  public func distance(covering window: DateInterval? = nil) -> RouteDistance {
    let ends = windowGaps(covering: window)
    return RouteDistance(
      metres: metres, segments: segments, gaps: gaps + (ends.start == nil ? 0 : 1) + (ends.end == nil ? 0 : 1),
      usablePositions: usablePositions, usesInferredContinuity: usesInferredContinuity,
      positionsWithAssumedAccuracy: positionsWithAssumedAccuracy, positionsDatedByArrival: positionsDatedByArrival)
  }

  /// The uncovered ends of `window`: the shift began, or ended, more than
  /// `maximumSampleInterval` from the route's first or last position. None without a
  /// window or without positions (an empty route has no ends to leave uncovered).
  public func windowGaps(covering window: DateInterval?) -> (start: RouteGap?, end: RouteGap?) {
    guard let window, let first, let last else { return (nil, nil) }
    let start =
      first.timestamp.timeIntervalSince(window.start) > maximumSampleInterval
      ? RouteGap(kind: .beforeCapture, from: window.start, to: first.timestamp) : nil
    let end =
      window.end.timeIntervalSince(last.timestamp) > maximumSampleInterval
      ? RouteGap(kind: .afterCapture, from: last.timestamp, to: window.end) : nil
    return (start, end)
  }
}
