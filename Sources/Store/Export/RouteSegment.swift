import DashPilotCore
import FoundationEssentials

/// One continuous stretch of a route: what an export writes as one track segment, so a gap
/// in capture is never drawn as a line somebody drove.
public struct RouteSegment: Sendable, Hashable {
  public var samples: [RouteSample]

  public init(samples: [RouteSample]) { self.samples = samples }

  /// The session that recorded the stretch; nil for an imported track.
  public var captureSessionID: CaptureSessionID? { samples.first?.captureSessionID }

  /// Splits a route where the measurement sees a gap. The walk is `RouteMileageAccumulator`
  /// itself, observed position by position (a position it consumes raises
  /// `usablePositions`; one that starts a new stretch raises `gaps`), so the rule for what
  /// is continuous has one implementation. Positions the measurement does not use (not on
  /// Earth, or repeating a timestamp) are left out, in the calculator's order.
  public static func split<C: Collection>(
    _ samples: C, maximumSampleInterval: TimeInterval = RouteMileageCalculator.defaultMaximumSampleInterval
  ) -> [RouteSegment] where C.Element == RouteSample {
    let ordered = samples.filter { $0.coordinate.isValid && $0.timestamp.timeIntervalSince1970.isFinite }
      .sorted(by: RouteMileageCalculator.measurementOrder)
    var walk = RouteMileageAccumulator(maximumSampleInterval: maximumSampleInterval)
    var segments: [RouteSegment] = []
    for sample in ordered {
      let used = walk.usablePositions
      let gaps = walk.gaps
      walk.extend(with: sample)
      guard walk.usablePositions != used else { continue }
      if segments.isEmpty || walk.gaps != gaps {
        segments.append(RouteSegment(samples: [sample]))
      } else {
        segments[segments.count - 1].samples.append(sample)
      }
    }
    return segments
  }
}

extension SampleStore {
  /// The shift's route split into continuous stretches, with the shift's own continuity
  /// limit: an export writes each as its own segment.
  public func continuousSegments(ofShift shiftID: Int64) throws(StoreError) -> [RouteSegment] {
    try database.readTransaction { () throws(StoreError) -> [RouteSegment] in
      guard let shift = try shift(id: shiftID) else { throw .shiftNotFound(shiftID) }
      return RouteSegment.split(
        try samples(ofShift: shiftID), maximumSampleInterval: shift.maximumSampleInterval)
    }
  }
}
