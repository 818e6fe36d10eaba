import Capture
import ControlProtocol
import DashPilotCore
import FoundationEssentials
import Guidance

/// How a replay is shown: the JSON object of `dashpilotctl replay --json`, or the report a
/// person reads.
public struct ReplayReport: Sendable {
  public var result: ReplayResult
  public var unit: DistanceUnit
  /// `--shifts`' limit, for the text's heading.
  public var endAfterStop: TimeInterval?
  /// `--end-at-place`: the place and its shorter limit, for the heading.
  var endPlace: (name: String, after: TimeInterval)?
  /// With `--stops`, the stops and the time.
  var stops: ReplayStops?

  public init(result: ReplayResult, unit: DistanceUnit = .miles, endAfterStop: TimeInterval? = nil) {
    self.result = result
    self.unit = unit
    self.endAfterStop = endAfterStop
  }

  public var quality: RouteQuality { RouteQuality(distance: result.distance, unit: unit) }

  /// One JSON object:
  /// `{"input":{"lines","skipped"},"capture_sessions","samples":{"received","accepted",
  /// "held","accuracy_assumed","rejected":{reason: n}},"distance":{...},"summary","spoken"}`
  /// (`held`: kept while the vehicle stood still; `accuracy_assumed`: kept with the assumed
  /// accuracy of a receiver that reports no error estimate), and with a route
  /// `"guidance":{"mode","phase","events":[{"type","time","lateral_m"}]}` (`lateral_m` only on
  /// `off_route`, null when no part of the route was within the search). Every rejection
  /// reason is listed (zero included) so a reader can rely on the keys; `save_failures` and
  /// `withheld_private` (fixes inside a private place of `--places`, never judged) are extra. With `--shifts`, `"shifts":[{"started_at","ended_at","started_by","ended_by",
  /// "distance":{...},"summary","spoken"}]`, oldest first (ISO 8601 UTC times; a shift still
  /// open when the log ends has `ended_by` `end_of_log` and `ended_at` its last fix). With
  /// `--stops`, `"stops":[...]` and `"time":{...}` (see `ReplayStops.json`).
  public var json: String {
    let statistics = result.statistics
    let distance = result.distance
    let rejected = SampleRejection.allCases.map {
      "\(JSONText.string($0.rawValue)):\(statistics.rejected[$0] ?? 0)"
    }.joined(separator: ",")
    let quality = quality
    // Appended in parts: one expression of all of them is more than Swift 6.0 (Debian 13's
    // compiler) type-checks in its time limit.
    var text = "{\"input\":{\"lines\":\(result.lines),\"skipped\":\(result.skippedLines)},"
    text += "\"capture_sessions\":\(result.captureSessions),"
    text += "\"samples\":{\"received\":\(statistics.received),\"accepted\":\(statistics.accepted),"
    text += "\"held\":\(statistics.held),\"accuracy_assumed\":\(statistics.accuracyAssumed),"
    text += "\"dated_by_arrival\":\(statistics.datedByArrival),\"undated\":\(statistics.undated),"
    text += "\"rejected\":{\(rejected)},\"save_failures\":\(statistics.saveFailures),"
    text += "\"withheld_private\":\(statistics.withheldInPrivatePlace)},"
    text += "\"distance\":\(ControlCoding.text(WireDistance(distance, unit: unit))),"
    text += "\"summary\":\(JSONText.string(quality.summary)),"
    text += "\"spoken\":\(JSONText.string(quality.spoken))"
    if let guidance = result.guidance { text += ",\"guidance\":" + Self.json(of: guidance) }
    if let shifts = result.shifts { text += ",\"shifts\":[" + shifts.map(json(of:)).joined(separator: ",") + "]" }
    if let stops { text += "," + stops.json }
    return text + "}"
  }

  func json(of shift: ReplayShift) -> String {
    let quality = RouteQuality(distance: shift.distance, unit: unit)
    func time(_ date: Date) -> String { UTCTimestamp.string(date).map(JSONText.string) ?? "null" }
    return "{\"started_at\":\(time(shift.startedAt)),\"ended_at\":\(time(shift.endedAt)),"
      + "\"started_by\":\(JSONText.string(shift.startedBy.rawValue)),"
      + "\"ended_by\":\(JSONText.string(shift.endedBy.rawValue)),"
      + "\"distance\":\(ControlCoding.text(WireDistance(shift.distance, unit: unit))),"
      + "\"summary\":\(JSONText.string(quality.summary)),\"spoken\":\(JSONText.string(quality.spoken))}"
  }

  /// The shifts a person reads: one line each, its figure beneath.
  func text(of shifts: [ReplayShift]) -> [String] {
    var limit = endAfterStop.map { ", ending after \(DurationText.spoken($0)) without a move" } ?? ""
    if let (name, after) = endPlace { limit += " or \(DurationText.spoken(after)) stopped at \(name)" }
    var lines = ["Shifts (starting on movement\(limit)):"]
    for (index, shift) in shifts.enumerated() {
      let start = UTCTimestamp.string(shift.startedAt) ?? "?"
      let end = UTCTimestamp.string(shift.endedAt) ?? "?"
      lines.append("  \(index + 1). \(start) – \(end), \(shift.startedBy.phrase), \(shift.endedBy.phrase)")
      lines.append("     " + RouteQuality(distance: shift.distance, unit: unit).summary)
    }
    if shifts.isEmpty { lines.append("  none: the vehicle never moved far enough from where it stood") }
    return lines
  }

  static func json(of guidance: ReplayGuidanceOutcome) -> String {
    let events = guidance.events.map { timed in
      var members = [
        "\"type\":\(JSONText.string(timed.event.name))",
        "\"time\":\(UTCTimestamp.string(timed.timestamp).map(JSONText.string) ?? "null")",
      ]
      if case let .offRoute(lateral) = timed.event {
        members.append("\"lateral_m\":\(JSONText.number(lateral, digits: 3))")
      }
      return "{" + members.joined(separator: ",") + "}"
    }
    return "{\"mode\":\(JSONText.string(guidance.mode.rawValue)),"
      + "\"phase\":\(JSONText.string(guidance.phase.rawValue)),"
      + "\"events\":[\(events.joined(separator: ","))]}"
  }

  /// The guidance lines a person reads: one per event, then where it stood at the end.
  static func text(of guidance: ReplayGuidanceOutcome) -> [String] {
    var lines = ["Guidance (\(guidance.mode.rawValue)):"]
    for timed in guidance.events {
      let time = UTCTimestamp.string(timed.timestamp) ?? "(no time)"
      switch timed.event {
      case .joined: lines.append("  \(time) joined the route")
      case let .offRoute(lateral):
        lines.append(
          lateral.isFinite
            ? "  \(time) off route, \(Int(lateral.rounded())) m from it"
            : "  \(time) off route, nowhere near it")
      case .backOnRoute: lines.append("  \(time) back on route")
      case .arrived: lines.append("  \(time) arrived")
      case .progress: break
      }
    }
    if guidance.events.isEmpty { lines.append("  never joined the route") }
    lines.append("  at the end: \(String(guidance.phase.rawValue.map { $0 == "_" ? " " : $0 }))")
    return lines
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
        + "\(statistics.received) fixes received, \(statistics.accepted) kept"
        + (statistics.held > 0 ? " (\(statistics.held) held while standing still)" : ""))
    if statistics.accuracyAssumed > 0 {
      lines.append("  accuracy assumed (receiver reports none) for \(statistics.accuracyAssumed) of them")
    }
    if statistics.datedByArrival > 0 {
      lines.append("  dated by arrival (receiver sends no date) for \(statistics.datedByArrival) of them")
    }
    for reason in SampleRejection.allCases {
      if let n = statistics.rejected[reason], n > 0 {
        lines.append("  \(n) rejected: \(reason.explanation)")
      }
    }
    if statistics.undated > 0 {
      lines.append(
        "  \(statistics.undated) of the rejected had no date (the receiver sends none): "
          + "a log recorded with gpspipe -w -u dates them by arrival")
    }
    if statistics.saveFailures > 0 { lines.append("  \(statistics.saveFailures) could not be saved") }
    if statistics.withheldInPrivatePlace > 0 {
      lines.append("  \(statistics.withheldInPrivatePlace) withheld inside a private place (not recorded)")
    }
    lines.append(
      "\(count(result.lines, "line")) read, \(result.skippedLines) skipped (not gpsd JSON)")
    if let guidance = result.guidance {
      lines.append("")
      lines += Self.text(of: guidance)
    }
    if let shifts = result.shifts {
      lines.append("")
      lines += text(of: shifts)
    }
    if let stops {
      lines.append("")
      lines += stops.text
    }
    return lines.joined(separator: "\n")
  }

  private func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }
}
