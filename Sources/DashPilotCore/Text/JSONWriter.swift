import FoundationEssentials

/// A small JSON writer with the key order and number formatting fixed, so the same value is
/// always the same bytes (an uplink retry is byte-identical) and tests can state exact text.
/// Foundation's encoder sorts keys but formats doubles by shortest round trip and escapes
/// slashes; neither suits a documented wire format.
public struct JSONWriter: Sendable {
  public private(set) var text = ""
  private var needsComma: [Bool] = []

  public init() {}

  public mutating func beginObject(_ key: String? = nil) {
    prefix(key)
    text += "{"
    needsComma.append(false)
  }

  public mutating func endObject() {
    text += "}"
    needsComma.removeLast()
  }

  public mutating func beginArray(_ key: String? = nil) {
    prefix(key)
    text += "["
    needsComma.append(false)
  }

  public mutating func endArray() {
    text += "]"
    needsComma.removeLast()
  }

  public mutating func string(_ key: String?, _ value: String?) {
    prefix(key)
    guard let value else {
      text += "null"
      return
    }
    JSONText.append(string: value, to: &text)
  }

  public mutating func integer(_ key: String?, _ value: Int64?) {
    prefix(key)
    text += value.map(String.init) ?? "null"
  }

  public mutating func bool(_ key: String?, _ value: Bool) {
    prefix(key)
    text += value ? "true" : "false"
  }

  /// A number with exactly `digits` decimals; null when it is not finite or too large to
  /// write exactly (nothing from outside may crash the writer).
  public mutating func fixed(_ key: String?, _ value: Double?, digits: Int) {
    prefix(key)
    text += JSONText.number(value, digits: digits)
  }

  /// An instant as `UTCTimestamp` writes it; null when it has no such form.
  public mutating func time(_ key: String?, _ value: Date?) {
    string(key, value.flatMap(UTCTimestamp.string))
  }

  /// A value another encoder already wrote as JSON, taken as it is.
  public mutating func json(_ key: String?, _ encoded: String) {
    prefix(key)
    text += encoded
  }

  private mutating func prefix(_ key: String?) {
    if let last = needsComma.last {
      if last { text += "," }
      needsComma[needsComma.count - 1] = true
    }
    if let key {
      JSONText.append(string: key, to: &text)
      text += ":"
    }
  }
}
