/// A validating reader of one JSON object (RFC 8259), handing each top-level member's key
/// and scalar value to the caller and skipping nested arrays and objects after checking
/// them. It never traps on any input: every index is bounds-checked, nesting is limited,
/// and anything malformed makes the whole object fail.
///
/// Keys, strings and numbers are handed over as the line's own bytes (a string with
/// escapes: its decoded bytes) and converted only when the caller wants the member: most
/// members of most reports (a SKY's satellites, a TPV's altitudes) are never read, and
/// making a String or a Double of each cost more than the rest of the scan.
///
/// It reads the line through a buffer pointer, valid for the scan only (see
/// `GPSDJSONFields`), and hands the caller buffers valid during its call only: indexing an
/// array slice, and slicing it for each key and value, cost about half of the daemon's
/// instructions per report at a receiver's pace. The explicit checks against `end` are what
/// keeps every read inside the line.
struct GPSDJSONScanner {
  enum Value {
    /// A string's UTF-8 bytes, escapes resolved.
    case text(UnsafeBufferPointer<UInt8>)
    /// A number's text, already checked against JSON's grammar; `double(_:)` reads it.
    case number(UnsafeBufferPointer<UInt8>)
    case boolean(Bool)
    case null
    /// An array or object, checked and skipped.
    case nested
  }

  /// A string as scanned: where it lies in the line, or its decoded bytes when it had
  /// escapes.
  private enum Text {
    case span(Range<Int>)
    case decoded([UInt8])
  }

  /// A value as scanned, before it is handed over.
  private enum Scanned {
    case text(Text)
    case number(Range<Int>)
    case boolean(Bool)
    case null
    case nested
  }

  /// Deeper nesting than gpsd ever writes is refused rather than followed.
  static let maximumDepth = 32

  private let bytes: UnsafeBufferPointer<UInt8>
  private var index: Int
  private let end: Int

  init(_ bytes: UnsafeBufferPointer<UInt8>) {
    self.bytes = bytes
    index = 0
    end = bytes.count
  }

  /// Reads the whole input as one object; false if it is anything else (trailing text
  /// included).
  mutating func scanObject(with member: (UnsafeBufferPointer<UInt8>, Value) -> Void) -> Bool {
    skipWhitespace()
    guard scanMembers(depth: 0, member: member) else { return false }
    skipWhitespace()
    return index == end
  }

  private var current: UInt8? { index < end ? bytes[index] : nil }

  private mutating func skipWhitespace() {
    while index < end {
      let byte = bytes[index]
      guard byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D else { return }
      index += 1
    }
  }

  private mutating func consume(_ byte: UInt8) -> Bool {
    guard current == byte else { return false }
    index += 1
    return true
  }

  /// `{ "key": value, ... }`, reporting each member of the top-level object to `member`
  /// (a nested object's members nobody reads).
  private mutating func scanMembers(depth: Int, member: (UnsafeBufferPointer<UInt8>, Value) -> Void) -> Bool {
    guard depth < Self.maximumDepth, consume(UInt8(ascii: "{")) else { return false }
    skipWhitespace()
    if consume(UInt8(ascii: "}")) { return true }
    while true {
      skipWhitespace()
      guard let key = scanString() else { return false }
      skipWhitespace()
      guard consume(UInt8(ascii: ":")) else { return false }
      skipWhitespace()
      guard let value = scanValue(depth: depth) else { return false }
      if depth == 0 { hand(key, value, to: member) }
      skipWhitespace()
      if consume(UInt8(ascii: ",")) { continue }
      return consume(UInt8(ascii: "}"))
    }
  }

  private func hand(_ key: Text, _ value: Scanned, to member: (UnsafeBufferPointer<UInt8>, Value) -> Void) {
    withBytes(key) { key in
      switch value {
      case .text(let text): withBytes(text) { member(key, .text($0)) }
      case .number(let range): member(key, .number(UnsafeBufferPointer(rebasing: bytes[range])))
      case .boolean(let truth): member(key, .boolean(truth))
      case .null: member(key, .null)
      case .nested: member(key, .nested)
      }
    }
  }

  private func withBytes<Result>(_ text: Text, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
    switch text {
    case .span(let range): body(UnsafeBufferPointer(rebasing: bytes[range]))
    case .decoded(let decoded): decoded.withUnsafeBufferPointer(body)
    }
  }

  private mutating func scanElements(depth: Int) -> Bool {
    guard depth < Self.maximumDepth, consume(UInt8(ascii: "[")) else { return false }
    skipWhitespace()
    if consume(UInt8(ascii: "]")) { return true }
    while true {
      skipWhitespace()
      guard scanValue(depth: depth) != nil else { return false }
      skipWhitespace()
      if consume(UInt8(ascii: ",")) { continue }
      return consume(UInt8(ascii: "]"))
    }
  }

  private mutating func scanValue(depth: Int) -> Scanned? {
    switch current {
    case UInt8(ascii: "{"): return scanMembers(depth: depth + 1) { _, _ in } ? .nested : nil
    case UInt8(ascii: "["): return scanElements(depth: depth + 1) ? .nested : nil
    case UInt8(ascii: "\""): return scanString().map(Scanned.text)
    case UInt8(ascii: "t"): return scanLiteral("true") ? .boolean(true) : nil
    case UInt8(ascii: "f"): return scanLiteral("false") ? .boolean(false) : nil
    case UInt8(ascii: "n"): return scanLiteral("null") ? .null : nil
    default: return scanNumber().map(Scanned.number)
    }
  }

  private mutating func scanLiteral(_ word: StaticString) -> Bool {
    let count = word.utf8CodeUnitCount
    guard index + count <= end else { return false }
    for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] { return false }
    index += count
    return true
  }

  /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`, exactly JSON's grammar (so
  /// no NaN, Infinity, hex or leading plus, which Double's own parser would accept).
  private mutating func scanNumber() -> Range<Int>? {
    let start = index
    _ = consume(UInt8(ascii: "-"))
    guard let first = current, isDigit(first) else { return nil }
    index += 1
    if first != UInt8(ascii: "0") { skipDigits() }
    if consume(UInt8(ascii: ".")) {
      guard let digit = current, isDigit(digit) else { return nil }
      skipDigits()
    }
    if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
      index += 1
      if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
      guard let digit = current, isDigit(digit) else { return nil }
      skipDigits()
    }
    return start..<index
  }

  /// The value of a number `scanNumber` accepted; one beyond Double's range reads as
  /// ±infinity, which the decoder then treats as absent. The digits of what gpsd writes
  /// (at most 17 significant, a power of ten within 22) are exact in a Double, so one
  /// multiplication or division gives the correctly rounded value, the one strtod gives;
  /// anything else goes to the standard library's parser.
  static func double(_ text: UnsafeBufferPointer<UInt8>) -> Double? {
    var index = text.startIndex
    let negative = index < text.endIndex && text[index] == UInt8(ascii: "-")
    if negative { index += 1 }
    var mantissa: UInt64 = 0
    var exponent = 0
    var exact = true
    var inFraction = false
    while index < text.endIndex {
      let byte = text[index]
      if byte == UInt8(ascii: ".") {
        inFraction = true
      } else if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
        guard mantissa < 100_000_000_000_000_000 else {
          exact = false
          break
        }
        mantissa = mantissa * 10 + UInt64(byte - UInt8(ascii: "0"))
        if inFraction { exponent -= 1 }
      } else {
        exact = false  // an exponent
        break
      }
      index += 1
    }
    if exact, mantissa <= 1 << 53, (-22...22).contains(exponent) {
      let magnitude =
        exponent < 0 ? Double(mantissa) / powersOfTen[-exponent] : Double(mantissa) * powersOfTen[exponent]
      return negative ? -magnitude : magnitude
    }
    return Double(String(decoding: text, as: UTF8.self))
  }

  /// 1e0 ... 1e22, each exact in a Double.
  private static let powersOfTen: [Double] = (0...22).map { power in
    (0..<power).reduce(1.0) { value, _ in value * 10 }
  }

  private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

  private mutating func skipDigits() {
    while index < end, isDigit(bytes[index]) { index += 1 }
  }

  /// A string with JSON's escapes, as UTF-8 bytes; raw control characters and bad escapes
  /// fail.
  private mutating func scanString() -> Text? {
    guard consume(UInt8(ascii: "\"")) else { return nil }
    let start = index
    // The common case, no escapes: the line's own bytes.
    while index < end {
      let byte = bytes[index]
      guard byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\"), byte >= 0x20 else { break }
      index += 1
    }
    if consume(UInt8(ascii: "\"")) { return .span(start..<(index - 1)) }
    var text = Array(bytes[start..<index])
    while let byte = current {
      index += 1
      switch byte {
      case UInt8(ascii: "\""): return .decoded(text)
      case UInt8(ascii: "\\"):
        guard let escaped = current else { return nil }
        index += 1
        switch escaped {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): text.append(escaped)
        case UInt8(ascii: "b"): text.append(0x08)
        case UInt8(ascii: "f"): text.append(0x0C)
        case UInt8(ascii: "n"): text.append(0x0A)
        case UInt8(ascii: "r"): text.append(0x0D)
        case UInt8(ascii: "t"): text.append(0x09)
        case UInt8(ascii: "u"):
          guard let scalar = scanUnicodeEscape() else { return nil }
          text.append(contentsOf: Array(String(Character(scalar)).utf8))
        default: return nil
        }
      default:
        guard byte >= 0x20 else { return nil }
        text.append(byte)
      }
    }
    return nil
  }

  /// The XXXX of `\uXXXX` (and a following low surrogate); a lone surrogate reads as U+FFFD.
  private mutating func scanUnicodeEscape() -> Unicode.Scalar? {
    guard let high = scanHexQuad() else { return nil }
    if (0xD800..<0xDC00).contains(high) {
      let save = index
      if consume(UInt8(ascii: "\\")), consume(UInt8(ascii: "u")), let low = scanHexQuad(),
        (0xDC00..<0xE000).contains(low)
      {
        return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
      }
      index = save
      return "\u{FFFD}"
    }
    return Unicode.Scalar(high) ?? "\u{FFFD}"
  }

  private mutating func scanHexQuad() -> UInt32? {
    guard index + 4 <= end else { return nil }
    var value: UInt32 = 0
    for _ in 0..<4 {
      let byte = bytes[index]
      let digit: UInt32
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
      default: return nil
      }
      value = value << 4 | digit
      index += 1
    }
    return value
  }
}
