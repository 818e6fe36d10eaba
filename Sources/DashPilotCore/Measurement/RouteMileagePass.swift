import FoundationEssentials

/// The calculator's walk fed one position at a time, for a reader whose route already comes
/// in measurement order: a shift's rows nearly always do (stored as they were captured, an
/// import stored sorted), so they need not be held, filtered and sorted before the walk.
/// It checks that order as it goes. Sorting a route already in that order changes nothing,
/// so the figure is exactly `RouteMileageCalculator.distance(of:covering:)`'s; a position
/// that sorts before the one fed last (a clock stepped back) ends the pass without a figure,
/// and the route must be measured whole, sorted.
public struct RouteMileagePass: Sendable {
  private var walk: RouteMileageAccumulator
  /// The last position fed when the walk skipped it for sharing the walk's last timestamp:
  /// the next must not sort before it either. Only meaningful while `lastFedTied`.
  private var tied: RouteSample?
  private var lastFedTied = false
  /// False once a position came out of measurement order: nothing more is walked.
  public private(set) var isInMeasurementOrder = true

  public init(calculator: RouteMileageCalculator = RouteMileageCalculator()) {
    walk = RouteMileageAccumulator(maximumSampleInterval: calculator.maximumSampleInterval)
  }

  /// Walks `sample` if it keeps the route in measurement order. A position that cannot be
  /// on Earth is skipped, as the calculator's filter drops it.
  /// The position is consumed, as the walk consumes it.
  public mutating func add(_ sample: consuming RouteSample) {
    guard isInMeasurementOrder, RouteMileageCalculator.isMeasurable(sample) else { return }
    guard let lastTimestamp = walk.lastTimestamp, sample.timestamp <= lastTimestamp else {
      // Later than everything walked: in order, whatever else it holds.
      lastFedTied = false
      walk.extend(with: sample)
      return
    }
    // At or before the walk's last time: in order only as a tie that sorts after the last
    // position fed. The walk skips it, but the next position must sort after it too.
    let reference = lastFedTied ? tied : walk.last
    if let reference, RouteMileageCalculator.measurementOrder(sample, reference) {
      isInMeasurementOrder = false
      return
    }
    walk.extend(with: copy sample)
    tied = sample
    lastFedTied = true
  }

  /// The figure, or nil when a position came out of order and the route must be sorted.
  public func distance(covering window: DateInterval? = nil) -> RouteDistance? {
    isInMeasurementOrder ? walk.distance(covering: window) : nil
  }
}
