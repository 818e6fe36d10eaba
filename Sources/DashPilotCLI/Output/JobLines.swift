import ControlProtocol
import DashPilotCore
import FoundationEssentials
import ReportBuilding
import ShiftReport

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
  static func line(_ job: WireJob) -> String { ShiftLines.job(job) }
}
