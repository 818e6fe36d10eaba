import ControlProtocol
import DashPilotCore
import FoundationEssentials
import ReportBuilding
import ShiftReport

/// A shift in the seed's words. The summary line already carries "· partial route";
/// colour only repeats it, never replaces it.
struct ShiftRenderer {
  let console: Console

  /// "#12  08:55–17:02  12.4 mi recorded · partial route  (started on movement, ended
  /// after a stop)"
  func row(_ shift: ShiftSummary, now: Date = Date()) -> String {
    let end = shift.endedAt.map { "–" + HumanFormat.format($0, "%H:%M") } ?? " (open)"
    let causes =
      shift.startedBy == .imported
      ? [ShiftStartCause.imported.phrase] : [shift.startedBy?.phrase, shift.endedBy?.phrase].compactMap { $0 }
    return "#\(shift.id)  \(HumanFormat.clock(shift.startedAt, now: now))\(end)  \(summary(shift))"
      + (causes.isEmpty ? "" : "  (" + causes.joined(separator: ", ") + ")")
  }

  /// " (started on movement)", " (started by hand)"; nothing when the daemon did not say.
  func startedBy(_ shift: ShiftSummary) -> String {
    shift.startedBy.map { " (\($0.phrase))" } ?? ""
  }

  /// How the open shift stands, as status says it ("stopped 12 min, ends after 45 min");
  /// nil while it moves, and for a shift that ends only by hand.
  func standing(_ shift: ShiftSummary) -> String? {
    guard let live = shift.live, let limit = live.endsAfterStopSeconds else { return nil }
    let ends = "ends after \(DurationText.spoken(limit))"
    if live.waitingForFix { return "no fix since the restart: the next one decides (\(ends) without a move)" }
    guard live.stoppedSince != nil else { return nil }
    return (live.stoppedSeconds.map { "stopped \(DurationText.spoken($0))" } ?? "stopped") + ", " + ends
  }

  func summary(_ shift: ShiftSummary) -> String {
    shift.distance.isPartial ? console.styled(shift.summary, .yellow) : shift.summary
  }

  /// The counts behind the figure, indented beneath it.
  func details(_ shift: ShiftSummary, indent: String) -> [String] {
    shift.details.map { indent + $0 }
  }

  /// "gap 14:02–14:09 (7 min): receiver /dev/ttyACM0 removed", in the reader's clock.
  static func gapLine(_ gap: WireGap) -> String { ShiftLines.gap(gap) }

  /// A gap's two times as the reader's clock shows them: the end with its day when it
  /// falls on another day than the start.
  static func gapClock(_ gap: WireGap) -> (from: String, to: String) { clock(gap.from, gap.to) }

  static func clock(_ from: Date, _ to: Date) -> (from: String, to: String) { ReaderClock.span(from, to) }

  /// The stops and the day's time beneath a shift's gaps: "1 stop of 2 min or more", each
  /// stop ("stop 1 10:10–10:17 (7 min) at Depot · still stopped when the shift ended", in the
  /// reader's clock), then "Time: 26 min moving · 7 min stopped" and what its words mean.
  static func stopLines(_ detail: ShiftDetail, indent: String) -> [String] {
    var lines = [indent + StopWording.count(detail.stops.count, minimumStop: detail.time.minimumStopSeconds)]
    for (index, stop) in detail.stops.enumerated() {
      let clock = clock(stop.arrival, stop.departure)
      lines.append(
        indent + indent
          + StopWording.line(
            number: index + 1, from: clock.from, to: clock.to, duration: stop.durationSeconds, cut: stop.cut,
            place: stop.place))
    }
    lines.append(indent + "Time: " + detail.time.summary)
    lines += detail.time.qualifyingSentences.map { indent + indent + $0 }
    guard !detail.jobs.isEmpty else { return lines }
    return lines + [indent + "Jobs:"] + detail.jobs.map { indent + indent + JobLines.line($0) }
  }
}
