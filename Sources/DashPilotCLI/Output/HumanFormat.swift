import ControlProtocol
import DashPilotCore
import FoundationEssentials
import ReportBuilding
import ShiftReport

#if canImport(Glibc)
  import Glibc
#endif

/// Small formatting rules for people: local clock times, durations, distances in the
/// daemon's unit.
enum HumanFormat {
  /// "08:55" today, "Mon 28 Nov 08:55" this year, "Sun 07 Sep 2025 08:55" in another, in
  /// the reader's time zone.
  static func clock(_ date: Date, now: Date = Date()) -> String {
    if format(date, "%Y-%m-%d") == format(now, "%Y-%m-%d") { return format(date, "%H:%M") }
    return format(date, format(date, "%Y") == format(now, "%Y") ? "%a %d %b %H:%M" : "%a %d %b %Y %H:%M")
  }

  static func format(_ date: Date, _ pattern: String) -> String { ReaderClock.format(date, pattern) }

  /// "2h 03m", "4m 12s", "9s".
  static func duration(_ seconds: Double) -> String {
    let total = Int(max(0, seconds))
    let days = total / 86_400
    let hours = (total % 86_400) / 3600
    let minutes = (total % 3600) / 60
    let rest = total % 60
    if days > 0 { return "\(days)d \(hours)h" }
    if hours > 0 { return "\(hours)h \(twoDigits(minutes))m" }
    if minutes > 0 { return "\(minutes)m \(twoDigits(rest))s" }
    return "\(rest)s"
  }

  private static func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }

  /// Metres in the daemon's unit (its name, as status gives it) with one decimal: "3.2 mi",
  /// "0.4 km".
  static func distance(metres: Double, units: String) -> String {
    let unit = DistanceUnit(name: units) ?? .miles
    return "\(FixedDecimal.text(metres / unit.metres, digits: 1) ?? "–") \(unit.symbol)"
  }

  static func metres(_ value: Double) -> String { "±\(FixedDecimal.text(value, digits: 0) ?? "–") m" }
}
