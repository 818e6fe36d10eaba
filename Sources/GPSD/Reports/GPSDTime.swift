import DashPilotCore
import FoundationEssentials

/// gpsd's timestamps: ISO-8601 in UTC, `2021-12-09T20:38:31.820Z`. Parsed by hand, because
/// a formatter is slow, not Sendable, and accepts more than gpsd writes.
public enum GPSDTime {
  /// The instant `text` names, or nil when it is not `YYYY-MM-DDTHH:MM:SS[.fff]Z`.
  public static func parse(_ text: String) -> Date? {
    let bytes = Array(text.utf8)
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
      (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day), hour < 24,
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

  /// The GPS epoch, 1980-01-06T00:00:00Z: no GPS fix is older.
  public static let gpsEpoch = Date(timeIntervalSince1970: 315_964_800)
  /// The GPS epoch plus 8192 weeks (2137-01-06): the 13-bit week number of modern signals
  /// cannot say more, so no receiver reports a fix past it.
  public static let latestFixTime = Date(timeIntervalSince1970: 315_964_800 + 8_192 * 604_800)

  /// The fix time `text` names, or nil when it is no timestamp (see `parse`) or lies where
  /// no GPS fix can: before the GPS epoch or past `latestFixTime`. Such a time is garbage
  /// from a receiver or a link, and a fix kept with it would do harm: dated far ahead, it
  /// makes every later fix of the shift look out of order; beyond the store's range, it
  /// fails its save and ends the capture session. A fix without a time is refused by the
  /// filter with the reason "invalid coordinate or time", and counted.
  public static func fixTime(_ text: String) -> Date? {
    guard let date = parse(text), date >= gpsEpoch, date < latestFixTime else { return nil }
    return date
  }

  /// Days in `month` of `year` (proleptic Gregorian): 2021-02-30 names no day.
  static func daysIn(month: Int, year: Int) -> Int {
    switch month {
    case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
    case 4, 6, 9, 11: return 30
    default: return 31
    }
  }
}
