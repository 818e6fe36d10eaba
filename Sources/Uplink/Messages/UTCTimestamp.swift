import DashPilotCore
import FoundationEssentials

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
    let (civilYear, civilMonth, civilDay) = CivilCalendar.civilFromDays(Int(days))
    let year = Int64(civilYear)
    let month = Int64(civilMonth)
    let day = Int64(civilDay)
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
