/// A number as decimal text with a fixed count of decimals, rounded half away from zero and
/// written with integer arithmetic: no locale, no libc, the same bytes on every machine.
/// The one rule behind every figure DashPilot writes: the "12.4 mi" of `RouteQuality`, the
/// numbers of the uplink's messages and of `replay --json`, the coordinates of a log line.
public enum FixedDecimal {
  /// `value` with exactly `digits` decimals after `decimal`, the whole part grouped in
  /// thousands by `grouping` when one is given. Nil when `value` is not finite or too large
  /// to write exactly (beyond 9e15 units of the last decimal), so that a caller says what it
  /// writes instead (JSON null, a dash) rather than a wrong figure.
  public static func text(_ value: Double, digits: Int, decimal: String = ".", grouping: String? = nil) -> String? {
    let digits = max(0, digits)
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let scaled = (value * scale).rounded(.toNearestOrAwayFromZero)
    guard scaled.isFinite, abs(scaled) < 9e15 else { return nil }
    let units = Int64(scaled)
    let divisor = UInt64(scale)
    let whole = String(units.magnitude / divisor)
    var text = units < 0 ? "-" : ""
    if let grouping {
      for (index, character) in whole.enumerated() {
        if index > 0, (whole.count - index) % 3 == 0 { text += grouping }
        text.append(character)
      }
    } else {
      text += whole
    }
    guard digits > 0 else { return text }
    let fraction = String(units.magnitude % divisor)
    return text + decimal + String(repeating: "0", count: digits - fraction.count) + fraction
  }
}
