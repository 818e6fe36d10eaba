import DashPilotCore
import FoundationEssentials

/// The timestamp `gpspipe` writes before each line it was asked to stamp, in UTC, followed
/// by `": "`:
///
/// - `-t`: `2026-12-02 13:12:48: ` (whole seconds, `%F %T`);
/// - `-u`: `2026-12-02 13:12:46.096249: ` (microseconds);
/// - `-uu`: `1796217167.914012: ` (seconds since 1970), which gpspipe 3.22 writes after
///   the `-t` form: `2026-12-02 13:12:47 1796217167.914012: `.
///
/// It is when gpspipe read the line from gpsd: the report's arrival on the recording
/// box's clock, which dates a fix the receiver sent no date for (`ArrivalDating`). Only
/// the `-u`/`-uu` forms date: the `-t` form's whole seconds would put the reports of one
/// second on one instant and make a second that was 0.1 s look like 1 s. Pure.
public enum GPSPipeTimestamp {
  /// The line without its stamp, and the arrival the stamp gives (nil for `-t` or a stamp
  /// not recognised); the line itself with no arrival when it has no stamp.
  public static func split(_ line: Substring) -> (arrival: Date?, rest: Substring) {
    guard let first = line.first, first != "{", first.isNumber,
      let brace = line.firstIndex(of: "{")
    else { return (nil, line) }
    let prefix = line[..<brace]
    guard prefix.hasSuffix(": ") else { return (nil, line) }
    let stamp = prefix.dropLast(2)
    return (arrival(stamp), line[brace...])
  }

  /// The instant a stamp (without its `": "`) names, when it has sub-second resolution.
  static func arrival(_ stamp: Substring) -> Date? {
    let last = stamp.split(separator: " ").last ?? stamp
    if let seconds = epochSeconds(last) { return Date(timeIntervalSince1970: seconds) }
    // `-u`: "YYYY-MM-DD HH:MM:SS.ffffff", UTC.
    let parts = stamp.split(separator: " ")
    guard parts.count == 2, parts[1].contains(".") else { return nil }
    return GPSDTime.parse("\(parts[0])T\(parts[1])Z")
  }

  /// `-uu`'s "1796217167.914012": digits, a point, six digits.
  private static func epochSeconds(_ text: Substring) -> Double? {
    let pieces = text.split(separator: ".", omittingEmptySubsequences: false)
    guard pieces.count == 2, pieces[1].count == 6, !pieces[0].isEmpty,
      pieces.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
      let seconds = Double(text), seconds.isFinite
    else { return nil }
    return seconds
  }
}
