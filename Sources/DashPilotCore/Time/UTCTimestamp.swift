import FoundationEssentials

/// ISO 8601 in UTC with milliseconds (`2023-11-14T22:13:20.000Z`), as gpsd writes its times:
/// the one form DashPilot writes an instant in (the uplink's messages, `replay`, GPX and
/// GeoJSON exports, log lines), from the epoch by the civil-from-days algorithm, so no
/// calendar object or ICU is needed.
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

  private static func pad(_ value: some BinaryInteger, _ width: Int) -> String {
    let digits = String(value)
    return String(repeating: "0", count: max(0, width - digits.count)) + digits
  }
}
