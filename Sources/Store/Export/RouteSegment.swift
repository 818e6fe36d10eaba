import DashPilotCore
import FoundationEssentials

/// One continuous stretch of a route: what an export writes as one track segment, so a gap
/// in capture is never drawn as a line somebody drove.
public struct RouteSegment: Sendable, Hashable {
  public var samples: [RouteSample]

  public init(samples: [RouteSample]) { self.samples = samples }

  /// The session that recorded the stretch; nil for an imported track.
  public var captureSessionID: CaptureSessionID? { samples.first?.captureSessionID }

  /// Splits a route where the measurement sees a gap: the stretches of
  /// `RouteMileageCalculator.measure`, the same walk that makes the figure, so the rule for
  /// what is continuous has one implementation. Positions the measurement does not use (not
  /// on Earth, or repeating a timestamp) are left out, in the calculator's order.
  public static func split<C: Collection>(
    _ samples: C, maximumSampleInterval: TimeInterval = RouteMileageCalculator.defaultMaximumSampleInterval
  ) -> [RouteSegment] where C.Element == RouteSample {
    RouteMileageCalculator(maximumSampleInterval: maximumSampleInterval).measure(samples).stretches.map {
      RouteSegment(samples: $0.samples)
    }
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
