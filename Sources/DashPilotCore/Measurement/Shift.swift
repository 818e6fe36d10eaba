import FoundationEssentials

/// A driver's shift. Its mileage is never stored: it is measured from its samples each
/// time it is asked, so a fix to the calculation improves every historical shift.
public struct Shift: Sendable, Hashable, Codable, Identifiable {
  public var id: Int64
  public var startedAt: Date
  public var endedAt: Date?

  public init(id: Int64, startedAt: Date, endedAt: Date? = nil) {
    self.id = id
    self.startedAt = startedAt
    self.endedAt = endedAt
  }

  public var isRunning: Bool { endedAt == nil }

  /// The shift's window, known once it has ended. A running shift has none: its window is
  /// still growing, and measuring against the moment it is read would count every red
  /// light as an uncovered end.
  public var window: DateInterval? {
    guard let endedAt, endedAt >= startedAt else { return nil }
    return DateInterval(start: startedAt, end: endedAt)
  }

  /// The recorded distance of `samples` (this shift's rows), measured in one pass.
  public func recordedDistance<C: Collection>(
    of samples: C,
    calculator: RouteMileageCalculator = RouteMileageCalculator()
  ) -> RouteDistance where C.Element == RouteSample {
    calculator.distance(of: samples, covering: window)
  }

  /// The same measurement with its stretches and gaps, for what lists or draws them.
  public func measuredRoute<C: Collection>(
    of samples: C,
    calculator: RouteMileageCalculator = RouteMileageCalculator()
  ) -> MeasuredRoute where C.Element == RouteSample {
    calculator.measure(samples, covering: window)
  }
}
