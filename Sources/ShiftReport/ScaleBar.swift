import DashPilotCore
import FoundationEssentials

/// The scale bar: the longest round length in the figure's unit that fits in a quarter of
/// the drawing, so it is read at a glance ("1 mi", "500 m").
public struct ScaleBar: Sendable, Hashable {
  /// Its length on the drawing, in drawing units.
  public var length: Double
  public var label: String

  static let mileSteps = [0.01, 0.02, 0.05, 0.1, 0.2, 0.25, 0.5, 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000]
  static let metreSteps = [
    5.0, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10_000, 20_000, 50_000, 100_000, 200_000, 500_000,
  ]

  /// The bar for a drawing at `metresPerUnit`, at most `maximumLength` units long.
  public init(metresPerUnit: Double, maximumLength: Double, unit: DistanceUnit) {
    switch unit {
    case .miles:
      let miles = Self.mileSteps.last { $0 * unit.metres / metresPerUnit <= maximumLength } ?? Self.mileSteps[0]
      length = miles * unit.metres / metresPerUnit
      label = "\(Self.number(miles)) mi"
    case .kilometres:
      let metres = Self.metreSteps.last { $0 / metresPerUnit <= maximumLength } ?? Self.metreSteps[0]
      length = metres / metresPerUnit
      label = metres >= 1000 ? "\(Self.number(metres / 1000)) km" : "\(Self.number(metres)) m"
    }
  }

  /// "0.25", "2", "0.5": the fewest decimals that write the step exactly.
  static func number(_ value: Double) -> String {
    for digits in 0...2 {
      var scale = 1.0
      for _ in 0..<digits { scale *= 10 }
      if (value * scale).rounded() == value * scale { return FixedDecimal.text(value, digits: digits) ?? "" }
    }
    return FixedDecimal.text(value, digits: 2) ?? ""
  }
}
