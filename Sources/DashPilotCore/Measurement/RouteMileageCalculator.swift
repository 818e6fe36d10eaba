import FoundationEssentials

/// Measures a whole route in one pass: the figure a shift is reported with.
public struct RouteMileageCalculator: Sendable {
  /// Two minutes: ordinary driving is never fragmented, and a longer silence is either a
  /// stationary vehicle or positions that stopped arriving. An engineering choice, so it
  /// is a setting.
  public static let defaultMaximumSampleInterval: TimeInterval = 120

  public var maximumSampleInterval: TimeInterval

  public init(maximumSampleInterval: TimeInterval = defaultMaximumSampleInterval) {
    self.maximumSampleInterval = maximumSampleInterval
  }

  /// Rejects only positions that cannot be on Earth, sorts by time with ties broken on
  /// coordinates (so fetch order never changes the number), then walks the route with
  /// the same accumulator an extension uses; equal timestamps collapse to the first.
  /// A route already in that order (nearly every stored shift) is walked as it is
  /// (`RouteMileagePass`); only one that is not is copied and sorted.
  @inlinable
  public func distance<C: Collection>(of samples: C, covering window: DateInterval? = nil)
    -> RouteDistance where C.Element == RouteSample
  {
    var pass = RouteMileagePass(calculator: self)
    for sample in samples {
      pass.add(sample)
      if !pass.isInMeasurementOrder { break }
    }
    if let distance = pass.distance(covering: window) { return distance }
    var accumulator = RouteMileageAccumulator(maximumSampleInterval: maximumSampleInterval)
    accumulator.extend(with: Self.ordered(samples))
    return accumulator.distance(covering: window)
  }

  /// The positions that can be on Earth, in `measurementOrder`: what every walk of a whole
  /// route is fed.
  @inlinable
  static func ordered<C: Collection>(_ samples: C) -> [RouteSample] where C.Element == RouteSample {
    samples.filter(isMeasurable).sorted(by: Self.measurementOrder)
  }

  /// Whether the walk counts `sample` at all: a position that can be on Earth, at a time.
  @inlinable
  public static func isMeasurable(_ sample: RouteSample) -> Bool {
    sample.coordinate.isValid && sample.timestamp.timeIntervalSince1970.isFinite
  }

  /// Time, then latitude, longitude and session: a total order on what is measured.
  public static func measurementOrder(_ a: RouteSample, _ b: RouteSample) -> Bool {
    if a.timestamp != b.timestamp { return a.timestamp < b.timestamp }
    if a.coordinate.latitude != b.coordinate.latitude { return a.coordinate.latitude < b.coordinate.latitude }
    if a.coordinate.longitude != b.coordinate.longitude {
      return a.coordinate.longitude < b.coordinate.longitude
    }
    return (a.captureSessionID?.rawValue ?? "") < (b.captureSessionID?.rawValue ?? "")
  }
}
