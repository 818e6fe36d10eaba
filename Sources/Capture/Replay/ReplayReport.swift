import DashPilotCore
import Foundation

/// How a replay is shown: the JSON object of `dashpilotctl replay --json`, or the report a
/// person reads. Kept here, beside the replay, so its shape is tested with it.
public struct ReplayReport: Sendable {
  public var result: ReplayResult
  public var unit: DistanceUnit

  public init(result: ReplayResult, unit: DistanceUnit = .miles) {
    self.result = result
    self.unit = unit
  }

  public var quality: RouteQuality { RouteQuality(distance: result.distance, unit: unit) }

  /// One JSON object:
  /// `{"input":{"lines","skipped"},"capture_sessions","samples":{"received","accepted",
  /// "rejected":{reason: n}},"distance":{...},"summary","spoken"}`. Every rejection reason is
  /// listed (zero included) so a reader can rely on the keys; `save_failures` is extra.
  public var json: String {
    let statistics = result.statistics
    let distance = result.distance
    let rejected = SampleRejection.allCases.map {
      "\(JSONText.string($0.rawValue)):\(statistics.rejected[$0] ?? 0)"
    }.joined(separator: ",")
    let quality = quality
    return "{"
      + "\"input\":{\"lines\":\(result.lines),\"skipped\":\(result.skippedLines)},"
      + "\"capture_sessions\":\(result.captureSessions),"
      + "\"samples\":{\"received\":\(statistics.received),\"accepted\":\(statistics.accepted),"
      + "\"rejected\":{\(rejected)},\"save_failures\":\(statistics.saveFailures)},"
      + "\"distance\":{\"metres\":\(JSONText.number(distance.metres)),"
      + "\"segments\":\(distance.segments),\"gaps\":\(distance.gaps),"
      + "\"usable_positions\":\(distance.usablePositions),"
      + "\"inferred_continuity\":\(distance.usesInferredContinuity),"
      + "\"measured\":\(distance.isMeasured),\"partial\":\(distance.isPartial)},"
      + "\"summary\":\(JSONText.string(quality.summary)),"
      + "\"spoken\":\(JSONText.string(quality.spoken))"
      + "}"
  }

  /// The report a person reads: the figure, the counts behind it, the sentences that
  /// qualify it, then what capture did.
  public var text: String {
    let quality = quality
    var lines = [quality.summary]
    lines += quality.details
    lines += quality.qualifyingSentences
    let statistics = result.statistics
    lines.append("")
    lines.append(
      "\(count(result.captureSessions, "capture session")); "
        + "\(statistics.received) fixes received, \(statistics.accepted) kept")
    for reason in SampleRejection.allCases {
      if let n = statistics.rejected[reason], n > 0 {
        lines.append("  \(n) rejected: \(reason.explanation)")
      }
    }
    if statistics.saveFailures > 0 { lines.append("  \(statistics.saveFailures) could not be saved") }
    lines.append(
      "\(count(result.lines, "line")) read, \(result.skippedLines) skipped (not gpsd JSON)")
    return lines.joined(separator: "\n")
  }

  private func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }
}

/// Minimal JSON text: escaped strings and finite numbers.
enum JSONText {
  static func string(_ value: String) -> String {
    var out = "\""
    for scalar in value.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case let s where s.value < 0x20:
        let hex = String(s.value, radix: 16)
        out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out + "\""
  }

  /// Metres to the millimetre; a non-finite value (never expected) as null.
  static func number(_ value: Double) -> String {
    guard value.isFinite else { return "null" }
    return String(format: "%.3f", value)
  }
}
