import Foundation

/// ISO 8601 timestamps in UTC with milliseconds ("2023-11-14T22:13:20.000Z"), computed from
/// the epoch with the civil-from-days algorithm, so the daemon needs neither a calendar nor
/// ICU to write one.
enum UTCTimestamp {
  static func string(_ date: Date) -> String? {
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
    // Howard Hinnant's civil_from_days.
    let shifted = days + 719_468
    let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
    let dayOfEra = shifted - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let monthIndex = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
    let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
    let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    guard (0...9999).contains(year) else { return nil }
    let hour = rest / 3_600_000
    let minute = rest / 60_000 % 60
    let second = rest / 1000 % 60
    let milli = rest % 1000
    return
      "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(hour, 2)):\(pad(minute, 2)):\(pad(second, 2)).\(pad(milli, 3))Z"
  }

  private static func pad(_ value: Int64, _ width: Int) -> String {
    let digits = String(value)
    return String(repeating: "0", count: max(0, width - digits.count)) + digits
  }
}
