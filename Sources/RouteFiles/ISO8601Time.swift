import DashPilotCore
import Foundation

/// ISO 8601 times as GPX and GeoJSON carry them, parsed by hand: no formatter, no locale, no
/// calendar, so the same text always gives the same instant. (They are written by
/// `UTCTimestamp`, as every time DashPilot writes.)
enum ISO8601Time {
  /// Accepts `YYYY-MM-DDTHH:MM:SS`, optional fraction, then `Z` or `±HH:MM` (or `±HHMM`).
  /// A time without a zone is taken as UTC, as GPX 1.0 loggers write it.
  static func parse(_ text: String) -> Date? {
    let chars = Array(text.trimmingCharacters(in: .whitespacesAndNewlines).utf8)
    var i = 0
    func number(_ digits: Int) -> Int? {
      guard i + digits <= chars.count else { return nil }
      var value = 0
      for _ in 0..<digits {
        let c = chars[i]
        guard c >= 48, c <= 57 else { return nil }
        value = value * 10 + Int(c - 48)
        i += 1
      }
      return value
    }
    func expect(_ c: UInt8) -> Bool {
      guard i < chars.count, chars[i] == c else { return false }
      i += 1
      return true
    }
    guard let year = number(4), expect(UInt8(ascii: "-")), let month = number(2),
      expect(UInt8(ascii: "-")), let day = number(2)
    else { return nil }
    guard i < chars.count, chars[i] == UInt8(ascii: "T") || chars[i] == UInt8(ascii: " ") else { return nil }
    i += 1
    guard let hour = number(2), expect(UInt8(ascii: ":")), let minute = number(2),
      expect(UInt8(ascii: ":")), let second = number(2)
    else { return nil }
    var fraction = 0.0
    if i < chars.count, chars[i] == UInt8(ascii: ".") || chars[i] == UInt8(ascii: ",") {
      i += 1
      var scale = 0.1
      var digits = 0
      while i < chars.count, chars[i] >= 48, chars[i] <= 57 {
        fraction += Double(chars[i] - 48) * scale
        scale /= 10
        digits += 1
        i += 1
      }
      guard digits > 0 else { return nil }
    }
    var offsetSeconds = 0
    if i < chars.count {
      if chars[i] == UInt8(ascii: "Z") || chars[i] == UInt8(ascii: "z") {
        i += 1
      } else if chars[i] == UInt8(ascii: "+") || chars[i] == UInt8(ascii: "-") {
        let sign = chars[i] == UInt8(ascii: "-") ? -1 : 1
        i += 1
        guard let offsetHours = number(2) else { return nil }
        _ = expect(UInt8(ascii: ":"))
        guard let offsetMinutes = number(2), offsetHours <= 23, offsetMinutes <= 59 else { return nil }
        offsetSeconds = sign * (offsetHours * 3600 + offsetMinutes * 60)
      } else {
        return nil
      }
    }
    guard i == chars.count, (1...12).contains(month),
      (1...CivilCalendar.daysIn(month: month, year: year)).contains(day),
      hour <= 23, minute <= 59, second <= 60
    else { return nil }
    let days = CivilCalendar.daysFromCivil(year: year, month: month, day: day)
    let whole = days * 86_400 + hour * 3600 + minute * 60 + second - offsetSeconds
    return Date(timeIntervalSince1970: Double(whole) + fraction)
  }
}
