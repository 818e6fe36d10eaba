import Foundation

/// The calendar of a delivery driver's year: one shift every working day, Monday to
/// Friday, 250 of them in about a year. Days are counted in UTC, by hand, so the same
/// parameters give the same dates on any machine.
enum WorkingDays {
  /// The UTC midnights of the last `count` working days before `until`, oldest first.
  static func days(count: Int, before until: Date) -> [Date] {
    var day = Int((until.timeIntervalSince1970 / 86_400).rounded(.down))
    var result: [Date] = []
    result.reserveCapacity(count)
    while result.count < count {
      day -= 1
      if isWorkingDay(day) { result.append(Date(timeIntervalSince1970: Double(day) * 86_400)) }
    }
    return result.reversed()
  }

  /// 1970-01-01 was a Thursday.
  static func isWorkingDay(_ daysSinceEpoch: Int) -> Bool {
    let weekday = ((daysSinceEpoch + 4) % 7 + 7) % 7  // 0 Sunday ... 6 Saturday
    return weekday != 0 && weekday != 6
  }

  /// Days from 1970-01-01 to a date of the proleptic Gregorian calendar (Howard Hinnant's
  /// days_from_civil).
  static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  /// "2026-12-01" for a time on that UTC day.
  static func text(_ date: Date) -> String {
    let days = Int((date.timeIntervalSince1970 / 86_400).rounded(.down))
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let dayOfEra = z - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let mp = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * mp + 2) / 5 + 1
    let month = mp < 10 ? mp + 3 : mp - 9
    let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    func pad(_ value: Int, _ width: Int) -> String {
      let digits = String(value)
      return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
    return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))"
  }
}
