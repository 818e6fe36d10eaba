import ControlProtocol
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
}
