/// A number as decimal text in fixed-point notation, never in exponent form: no locale, no
/// libc, the same bytes on every machine. The one way DashPilot writes a number: with a
/// fixed count of decimals (`text`: the "12.4 mi" of `RouteQuality`, the numbers of the
/// uplink's messages and of `replay --json`, the coordinates of a log line), or as few as
/// give the number back (`shortest`: GPX and GeoJSON coordinates, a configured value).
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

  /// The shortest text that reads back as the same Double, without a trailing ".0" and
  /// never in exponent form (GPX's `xsd:decimal` has none): "51.500123456789", "3",
  /// "-0.000012345". A value that is not finite is written as Swift writes it ("inf", "nan").
  public static func shortest(_ value: Double) -> String {
    let text = "\(value)"
    guard text.contains("e") else { return text.hasSuffix(".0") ? String(text.dropLast(2)) : text }
    // Tiny or huge magnitudes: expand the exponent by hand.
    let parts = text.split(separator: "e")
    guard parts.count == 2, let exponent = Int(parts[1]) else { return text }
    var mantissa = String(parts[0])
    let negative = mantissa.hasPrefix("-")
    if negative { mantissa.removeFirst() }
    let pieces = mantissa.split(separator: ".", omittingEmptySubsequences: false)
    let integer = String(pieces[0])
    let fraction = pieces.count > 1 ? String(pieces[1]) : ""
    var digits = integer + fraction
    var point = integer.count + exponent
    if point <= 0 {
      digits = String(repeating: "0", count: -point + 1) + digits
      point = 1
    } else if point > digits.count {
      digits += String(repeating: "0", count: point - digits.count)
    }
    var result = String(digits.prefix(point)) + "." + String(digits.dropFirst(point))
    while result.hasSuffix("0") { result.removeLast() }
    if result.hasSuffix(".") { result.removeLast() }
    return (negative ? "-" : "") + result
  }
}
