import ControlProtocol
import DashPilotCore
import FoundationEssentials

/// The lines a shift's gaps and jobs are listed with, in the reader's clock: `shift show`,
/// `dashpilotctl jobs` and every report.
public enum ShiftLines {
  /// "gap 14:02–14:09 (7 min): receiver /dev/ttyACM0 removed".
  public static func gap(_ gap: WireGap) -> String {
    let clock = ReaderClock.span(gap.from, gap.to)
    return CaptureGapWording.line(from: clock.from, to: clock.to, seconds: gap.seconds, cause: gap.cause)
  }

  /// "A1 Flowers for Ms Smith: visited, stood 5 min (10:01–10:07), 3 m from it".
  public static func job(_ job: WireJob) -> String {
    let head = "\(job.id) \(job.name)"
    guard let visit = job.visit else {
      let at = "\(FixedDecimal.text(job.lat, digits: 5) ?? "?"),\(FixedDecimal.text(job.lon, digits: 5) ?? "?")"
      return "\(head): \(job.state.replacing("_", with: " ")) (at \(at), within \(Int(job.radiusMetres)) m)"
    }
    let clock = { (date: Date) in ReaderClock.format(date, "%H:%M") }
    let times = "\(clock(visit.arrival))–\(visit.stopEnd == "ongoing" ? "now" : clock(visit.departure))"
    var words = [
      "\(head): \(job.state)", "stood \(CaptureGapWording.duration(visit.durationSeconds)) (\(times))",
      "\(Int(visit.distanceMetres.rounded())) m from it",
    ]
    if !visit.receiverReportedThroughout { words.append("the receiver did not report throughout") }
    if let within = visit.withinWindow { words.append(within ? "within its window" : "outside its window") }
    return words.joined(separator: ", ")
  }
}
