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

  /// The instant `text` names, or nil when it is not `YYYY-MM-DDTHH:MM:SS[.fff]Z` (the
  /// fraction of any length, or none). Parsed by hand, because a formatter is slow, not
  /// Sendable, and accepts more than this form.
  public static func parse(_ text: String) -> Date? {
    // The string's own bytes, not a copy: every fix gpsd reports has its time read here.
    var text = text
    return text.withUTF8(parse(utf8:))
  }

  private static func parse(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Date? {
    guard bytes.count >= 20, bytes.last == UInt8(ascii: "Z") else { return nil }
    func number(_ range: Range<Int>) -> Int? {
      var value = 0
      for index in range {
        let byte = bytes[index]
        guard byte >= 48, byte <= 57 else { return nil }
        value = value * 10 + Int(byte - 48)
      }
      return value
    }
    guard bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"), bytes[10] == UInt8(ascii: "T"),
      bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
      let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
      let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
      (1...12).contains(month), (1...CivilCalendar.daysIn(month: month, year: year)).contains(day), hour < 24,
      minute < 60, second <= 60
    else { return nil }
    var fraction = 0.0
    let end = bytes.count - 1
    if end > 19 {
      guard bytes[19] == UInt8(ascii: "."), end > 20 else { return nil }
      var scale = 0.1
      for index in 20..<end {
        let byte = bytes[index]
        guard byte >= 48, byte <= 57 else { return nil }
        fraction += Double(byte - 48) * scale
        scale /= 10
      }
    }
    let days = CivilCalendar.daysFromCivil(year: year, month: month, day: day)
    let seconds = Double(days * 86_400 + hour * 3_600 + minute * 60 + second) + fraction
    return Date(timeIntervalSince1970: seconds)
  }

  private static func pad(_ value: some BinaryInteger, _ width: Int) -> String {
    let digits = String(value)
    return String(repeating: "0", count: max(0, width - digits.count)) + digits
  }
}
