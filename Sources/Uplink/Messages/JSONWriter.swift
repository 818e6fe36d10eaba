/// A small JSON writer with the key order and number formatting fixed, so the same message
/// is always the same bytes (a retry is byte-identical) and tests can state exact payloads.
/// Foundation's encoder sorts keys but formats doubles by shortest round trip and escapes
/// slashes; neither suits a documented wire format.
struct JSONWriter {
  private(set) var text = ""
  private var needsComma: [Bool] = []

  mutating func beginObject(_ key: String? = nil) {
    prefix(key)
    text += "{"
    needsComma.append(false)
  }

  mutating func endObject() {
    text += "}"
    needsComma.removeLast()
  }

  mutating func beginArray(_ key: String? = nil) {
    prefix(key)
    text += "["
    needsComma.append(false)
  }

  mutating func endArray() {
    text += "]"
    needsComma.removeLast()
  }

  mutating func string(_ key: String?, _ value: String?) {
    prefix(key)
    guard let value else {
      text += "null"
      return
    }
    Self.appendQuoted(value, to: &text)
  }

  mutating func integer(_ key: String?, _ value: Int64?) {
    prefix(key)
    text += value.map(String.init) ?? "null"
  }

  mutating func bool(_ key: String?, _ value: Bool) {
    prefix(key)
    text += value ? "true" : "false"
  }

  /// A number with exactly `digits` decimals; null when it is not finite or too large to
  /// write exactly (nothing from outside may crash the encoder).
  mutating func fixed(_ key: String?, _ value: Double?, digits: Int) {
    prefix(key)
    text += value.flatMap { Self.fixedDecimal($0, digits: digits) } ?? "null"
  }

  private mutating func prefix(_ key: String?) {
    if let last = needsComma.last {
      if last { text += "," }
      needsComma[needsComma.count - 1] = true
    }
    if let key {
      Self.appendQuoted(key, to: &text)
      text += ":"
    }
  }

  static func appendQuoted(_ value: String, to text: inout String) {
    text += "\""
    for scalar in value.unicodeScalars {
      switch scalar {
      case "\"": text += "\\\""
      case "\\": text += "\\\\"
      case "\n": text += "\\n"
      case "\r": text += "\\r"
      case "\t": text += "\\t"
      case _ where scalar.value < 0x20 || scalar.value == 0x7F:
        let hex = String(scalar.value, radix: 16)
        text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: text.unicodeScalars.append(scalar)
      }
    }
    text += "\""
  }

  /// `value` rounded half away from zero to `digits` decimals, written with integer
  /// arithmetic so no locale or libc formatting is involved.
  static func fixedDecimal(_ value: Double, digits: Int) -> String? {
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let scaled = (value * scale).rounded(.toNearestOrAwayFromZero)
    guard scaled.isFinite, abs(scaled) < 9e15 else { return nil }
    let units = Int64(scaled)
    let magnitude = units.magnitude
    let divisor = UInt64(scale)
    let whole = magnitude / divisor
    let sign = units < 0 ? "-" : ""
    guard digits > 0 else { return sign + String(whole) }
    let fraction = String(magnitude % divisor)
    return sign + String(whole) + "." + String(repeating: "0", count: digits - fraction.count) + fraction
  }
}
