import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// Times as the reader's clock shows them (their time zone, `TZ` or /etc/localtime): what
/// `dashpilotctl` prints and every report says, wherever the report is drawn (on the box's
/// client, or in the office from its rows).
public enum ReaderClock {
  /// `date` in the reader's zone with a strftime pattern ("%H:%M").
  public static func format(_ date: Date, _ pattern: String) -> String {
    var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
    var parts = tm()
    localtime_r(&seconds, &parts)
    var buffer = [CChar](repeating: 0, count: 64)
    let count = strftime(&buffer, buffer.count, pattern, &parts)
    return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// Two times of a span: the end with its day when it falls on another day than the start.
  public static func span(_ from: Date, _ to: Date) -> (from: String, to: String) {
    let sameDay = format(from, "%Y-%m-%d") == format(to, "%Y-%m-%d")
    return (format(from, "%H:%M"), format(to, sameDay ? "%H:%M" : "%a %d %b %H:%M"))
  }
}
