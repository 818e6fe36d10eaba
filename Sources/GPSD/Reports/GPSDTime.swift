import DashPilotCore
import FoundationEssentials

/// gpsd's timestamps: ISO-8601 in UTC, `2021-12-09T20:38:31.820Z`, the form DashPilot
/// writes its own in (`UTCTimestamp`), and where a fix time may lie.
public enum GPSDTime {
  /// The instant `text` names, or nil when it is not `YYYY-MM-DDTHH:MM:SS[.fff]Z`.
  public static func parse(_ text: String) -> Date? { UTCTimestamp.parse(text) }

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
    guard let date = parse(text) else { return nil }
    return fixTime(date)
  }

  /// The same for the text's UTF-8 bytes.
  public static func fixTime(utf8 text: UnsafeBufferPointer<UInt8>) -> Date? {
    guard let date = UTCTimestamp.parse(utf8: text) else { return nil }
    return fixTime(date)
  }

  private static func fixTime(_ date: Date) -> Date? {
    date >= gpsEpoch && date < latestFixTime ? date : nil
  }
}
