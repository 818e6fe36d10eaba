import FoundationEssentials

/// A duration as a person writes one in a configuration or on a command line: a number
/// of seconds, optionally with its unit, `s`, `min` or `h` (`90`, `90s`, `45min`, `1.5h`),
/// and as DashPilot says one back ("45 min", "1 h 30 min", "40 s").
public enum DurationText {
  /// The seconds `text` names, or nil when it is not a non-negative number with an
  /// optional unit of `s`, `min` or `h` (no space, no other unit).
  public static func seconds(_ text: String) -> TimeInterval? {
    let units: [(suffix: String, seconds: Double)] = [("min", 60), ("h", 3600), ("s", 1)]
    var number = Substring(text)
    var scale = 1.0
    for unit in units where number.hasSuffix(unit.suffix) {
      number = number.dropLast(unit.suffix.count)
      scale = unit.seconds
      break
    }
    guard !number.isEmpty, number.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
      number.first != ".", number.last != ".", let value = Double(number), value.isFinite
    else { return nil }
    return value * scale
  }

  /// Whole minutes from one minute up ("12 min", "1 h 5 min", "2 h"), seconds below it
  /// ("40 s"): a stop or a limit as status says it.
  public static func spoken(_ seconds: TimeInterval) -> String {
    guard seconds.isFinite, seconds >= 60 else { return "\(Int(max(0, seconds.isFinite ? seconds : 0))) s" }
    let minutes = Int(seconds / 60)
    let hours = minutes / 60
    switch (hours, minutes % 60) {
    case (0, let rest): return "\(rest) min"
    case (let hours, 0): return "\(hours) h"
    case (let hours, let rest): return "\(hours) h \(rest) min"
    }
  }
}
