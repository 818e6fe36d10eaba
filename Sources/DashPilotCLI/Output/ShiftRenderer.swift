import ControlProtocol
import DashPilotCore
import Foundation

/// A shift in the seed's words. The summary line already carries "· partial route";
/// colour only repeats it, never replaces it.
struct ShiftRenderer {
  let console: Console

  /// "#12  08:55–17:02  12.4 mi recorded · partial route"
  func row(_ shift: ShiftSummary, now: Date = Date()) -> String {
    let end = shift.endedAt.map { "–" + HumanFormat.format($0, "%H:%M") } ?? " (open)"
    return "#\(shift.id)  \(HumanFormat.clock(shift.startedAt, now: now))\(end)  \(summary(shift))"
  }

  func summary(_ shift: ShiftSummary) -> String {
    shift.distance.isPartial ? console.styled(shift.summary, .yellow) : shift.summary
  }

  /// The counts behind the figure, indented beneath it.
  func details(_ shift: ShiftSummary, indent: String) -> [String] {
    shift.details.map { indent + $0 }
  }

  /// "gap 14:02–14:09 (7 min): receiver /dev/ttyACM0 removed", in the reader's clock.
  static func gapLine(_ gap: WireGap) -> String {
    let clock = gapClock(gap)
    return CaptureGapWording.line(from: clock.from, to: clock.to, seconds: gap.seconds, cause: gap.cause)
  }

  /// A gap's two times as the reader's clock shows them: the end with its day when it
  /// falls on another day than the start.
  static func gapClock(_ gap: WireGap) -> (from: String, to: String) {
    let sameDay = HumanFormat.format(gap.from, "%Y-%m-%d") == HumanFormat.format(gap.to, "%Y-%m-%d")
    return (HumanFormat.format(gap.from, "%H:%M"), HumanFormat.format(gap.to, sameDay ? "%H:%M" : "%a %d %b %H:%M"))
  }
}
