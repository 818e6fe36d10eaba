import DashPilotCore
import FoundationEssentials
import PlatformSupport

extension ArgumentCursor {
  /// The shift a command names: `12`, or `#12` as `shifts` prints it.
  mutating func shiftID(for command: String) throws(UsageError) -> Int64 {
    try Self.shiftID(try requiredPositional("the shift ID"), command: command)
  }

  /// A shift number as a person writes it: `12` or `#12`.
  static func shiftID(_ text: String, command: String) throws(UsageError) -> Int64 {
    guard let id = Int64(text.hasPrefix("#") ? String(text.dropFirst()) : text), id > 0 else {
      throw UsageError("\"\(text)\" is not a shift number", command: command)
    }
    return id
  }

  /// A day (`2026-11-01`: its start, UTC) or a UTC time (`2026-11-01T08:00:00Z`).
  static func time(_ text: String, option: String, command: String) throws(UsageError) -> Date {
    if let time = UTCTimestamp.parse(text) { return time }
    if text.utf8.count == 10, let time = UTCTimestamp.parse(text + "T00:00:00Z") { return time }
    throw UsageError(
      "\(option) needs a day such as 2026-11-01 or a UTC time such as 2026-11-01T08:00:00Z", command: command)
  }
}
