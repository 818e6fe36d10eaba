/// JSON text for the values DashPilot writes by hand (the uplink's messages, `replay
/// --json`, GeoJSON): the one place strings are escaped and numbers written.
public enum JSONText {
  /// `value` as a JSON string: in quotes, with `"`, `\` and every control character
  /// escaped. U+007F (DEL) is escaped too: JSON allows it raw, but a terminal showing a
  /// message or a log line may act on it.
  public static func string(_ value: String) -> String {
    var text = ""
    append(string: value, to: &text)
    return text
  }

  /// `string(value)` appended to `text`, without building a string of its own.
  public static func append(string value: String, to text: inout String) {
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

  /// A number with exactly `digits` decimals (`FixedDecimal`); null when it is not finite
  /// or too large to write exactly, so nothing from outside can make the text invalid.
  public static func number(_ value: Double?, digits: Int) -> String {
    value.flatMap { FixedDecimal.text($0, digits: digits) } ?? "null"
  }
}
