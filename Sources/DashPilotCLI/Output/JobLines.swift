import ControlProtocol
import DashPilotCore
import FoundationEssentials

/// Jobs as a person reads them: `dashpilotctl jobs` and `shift show`.
enum JobLines {
  static func list(_ result: JobsResult) -> [String] {
    var lines = result.queue.isEmpty ? ["No job is queued."] : ["Queued (\(result.queue.count)):"]
    lines += result.queue.map { "  " + line($0) }
    guard let shift = result.shift else { return lines }
    lines.append(result.done.isEmpty ? "No job done in shift \(shift)." : "Done in shift \(shift):")
    return lines + result.done.map { "  " + line($0) }
  }

  /// "A1 Flowers for Ms Smith: visited, stood 5 min (10:01–10:07), 3 m from it", in the
  /// reader's clock.
  static func line(_ job: WireJob) -> String {
    let head = "\(job.id) \(job.name)"
    guard let visit = job.visit else {
      let at = "\(FixedDecimal.text(job.lat, digits: 5) ?? "?"),\(FixedDecimal.text(job.lon, digits: 5) ?? "?")"
      return "\(head): \(job.state.replacing("_", with: " ")) (at \(at), within \(Int(job.radiusMetres)) m)"
    }
    let times = "\(clock(visit.arrival))–\(visit.stopEnd == "ongoing" ? "now" : clock(visit.departure))"
    var words = [
      "\(head): \(job.state)", "stood \(CaptureGapWording.duration(visit.durationSeconds)) (\(times))",
      "\(Int(visit.distanceMetres.rounded())) m from it",
    ]
    if !visit.receiverReportedThroughout { words.append("the receiver did not report throughout") }
    if let within = visit.withinWindow { words.append(within ? "within its window" : "outside its window") }
    return words.joined(separator: ", ")
  }

  /// The reader's clock, as `shift show` gives a stop's times.
  private static func clock(_ date: Date) -> String { HumanFormat.format(date, "%H:%M") }
}
