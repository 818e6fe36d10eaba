import FoundationEssentials

/// ISO 8601 in UTC with milliseconds (`2023-11-14T22:13:20.000Z`), as gpsd writes its times:
/// the one form DashPilot writes an instant in (the control socket's answers, the uplink's
/// messages, `replay`, GPX and GeoJSON exports, log lines), from the epoch by the
/// civil-from-days algorithm, so no calendar object or ICU is needed.
///
/// Rounded to the nearest millisecond: an instant read back from milliseconds (a stored
/// fix, gpsd's `.820`) is a Double a hair below it, and `Date.ISO8601FormatStyle`, which
/// truncates, writes 1639082311.82 as `.819` (and dates before 1582 in the Julian calendar).
public enum UTCTimestamp {
  /// Nil for an instant outside years 0000-9999, which the form cannot write.
  public static func string(_ date: Date) -> String? {
    let totalMilliseconds = (date.timeIntervalSince1970 * 1000).rounded()
    guard totalMilliseconds.isFinite, abs(totalMilliseconds) < 2.5e17 else { return nil }
    let milliseconds = Int64(totalMilliseconds)
    let millisecondsPerDay: Int64 = 86_400_000
    var days = milliseconds / millisecondsPerDay
    var rest = milliseconds % millisecondsPerDay
    if rest < 0 {
      rest += millisecondsPerDay
      days -= 1
    }
    let (year, month, day) = CivilCalendar.civilFromDays(Int(days))
    guard (0...9999).contains(year) else { return nil }
    let hour = rest / 3_600_000
    let minute = rest / 60_000 % 60
    let second = rest / 1000 % 60
    return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T"
      + "\(pad(hour, 2)):\(pad(minute, 2)):\(pad(second, 2)).\(pad(rest % 1000, 3))Z"
  }

  /// The forms `parse` reads.
  public enum Form: Sendable, Hashable {
    /// `YYYY-MM-DDTHH:MM:SS[.fff]Z`, the fraction of any length or none: what gpsd writes,
    /// and DashPilot (the control socket, `replay --window`).
    case utc
    /// Any ISO 8601 time a GPS logger writes into a GPX or GeoJSON file: besides `utc`, a
    /// space for the `T`, a comma for the point, `z`, an offset (`+02:00`, `-0530`) for the
    /// `Z`, or no zone at all (taken as UTC, as GPX 1.0 loggers write it), white space around.
    case logger
  }

  /// The instant `text` names in `form`, or nil when it names none (a month 13, February
  /// 30). Parsed by hand, because a formatter is slow, not Sendable, and accepts more than
  /// these forms; one parser for both, so a route file's time and gpsd's read alike.
  public static func parse(_ text: String, _ form: Form = .utc) -> Date? {
    // The string's own bytes, not a copy: every fix gpsd reports has its time read here.
    var text = text
    return text.withUTF8 { parse(utf8: $0, logger: form == .logger) }
  }

  /// The instant the UTF-8 text `bytes` names in the `utc` form.
  public static func parse(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Date? {
    parse(utf8: bytes, logger: false)
  }

  private static func parse(utf8 bytes: UnsafeBufferPointer<UInt8>, logger: Bool) -> Date? {
    var scanner = ByteScanner(bytes: bytes, trimmingWhiteSpace: logger)
    guard let year = scanner.number(digits: 4), scanner.skip("-"), let month = scanner.number(digits: 2),
      scanner.skip("-"), let day = scanner.number(digits: 2), scanner.skip("T") || (logger && scanner.skip(" ")),
      let hour = scanner.number(digits: 2), scanner.skip(":"), let minute = scanner.number(digits: 2),
      scanner.skip(":"), let second = scanner.number(digits: 2)
    else { return nil }
    var fraction = 0.0
    if scanner.skip(".") || (logger && scanner.skip(",")) {
      guard let value = scanner.fraction() else { return nil }
      fraction = value
    }
    var offsetSeconds = 0
    if scanner.skip("Z") || (logger && scanner.skip("z")) {
      offsetSeconds = 0
    } else if logger, let sign = scanner.skip("+") ? 1 : scanner.skip("-") ? -1 : nil {
      guard let hours = scanner.number(digits: 2) else { return nil }
      _ = scanner.skip(":")
      guard let minutes = scanner.number(digits: 2), hours <= 23, minutes <= 59 else { return nil }
      offsetSeconds = sign * (hours * 3600 + minutes * 60)
    } else if !logger || !scanner.isAtEnd {
      return nil
    }
    guard scanner.isAtEnd, (1...12).contains(month), (1...CivilCalendar.daysIn(month: month, year: year)).contains(day),
      hour < 24, minute < 60, second <= 60
    else { return nil }
    let days = CivilCalendar.daysFromCivil(year: year, month: month, day: day)
    let seconds = Double(days * 86_400 + hour * 3_600 + minute * 60 + second - offsetSeconds) + fraction
    return Date(timeIntervalSince1970: seconds)
  }

  /// A cursor over a time's bytes.
  private struct ByteScanner {
    let bytes: UnsafeBufferPointer<UInt8>
    var index: Int
    let end: Int

    init(bytes: UnsafeBufferPointer<UInt8>, trimmingWhiteSpace: Bool) {
      self.bytes = bytes
      var start = 0
      var end = bytes.count
      if trimmingWhiteSpace {
        while start < end, Self.isWhiteSpace(bytes[start]) { start += 1 }
        while end > start, Self.isWhiteSpace(bytes[end - 1]) { end -= 1 }
      }
      index = start
      self.end = end
    }

    var isAtEnd: Bool { index == end }

    /// Steps over `character` when it is next.
    mutating func skip(_ character: Unicode.Scalar) -> Bool {
      guard index < end, bytes[index] == UInt8(ascii: character) else { return false }
      index += 1
      return true
    }

    /// The value of exactly `digits` decimal digits.
    mutating func number(digits: Int) -> Int? {
      guard end - index >= digits else { return nil }
      var value = 0
      for _ in 0..<digits {
        let byte = bytes[index]
        guard byte >= 48, byte <= 57 else { return nil }
        value = value * 10 + Int(byte - 48)
        index += 1
      }
      return value
    }

    /// The digits after a decimal point as a fraction of a second; nil without one.
    mutating func fraction() -> Double? {
      var fraction = 0.0
      var scale = 0.1
      let first = index
      while index < end, bytes[index] >= 48, bytes[index] <= 57 {
        fraction += Double(bytes[index] - 48) * scale
        scale /= 10
        index += 1
      }
      return index > first ? fraction : nil
    }

    private static func isWhiteSpace(_ byte: UInt8) -> Bool { byte == 0x20 || (0x09...0x0D).contains(byte) }
  }

  private static func pad(_ value: some BinaryInteger, _ width: Int) -> String {
    let digits = String(value)
    return String(repeating: "0", count: max(0, width - digits.count)) + digits
  }
}
