import ControlProtocol
import DashPilotCore
import FoundationEssentials
import OfficeCore
import PlatformSupport
import ReportBuilding
import ShiftReport

/// `dashpilot-officed report VEHICLE SHIFT`: the shift drawn from the office's rows as the
/// same self-contained SVG `dashpilotctl report` draws on the box (`OfficeShiftAnswer`,
/// then ShiftReport's builder and renderer), the vehicle named in its title.
public enum OfficeReportCommand {
  struct NotFound: Error, CustomStringConvertible {
    var description: String
  }

  static func run(_ connection: PostgresConnection, vehicle: String, shift: Int64, output: String?) throws {
    let rows = try read(connection, vehicle: vehicle, shift: shift)
    let svg = render(rows, vehicle: vehicle)
    let path = output ?? "shift-\(vehicle)-\(shift).svg"
    if path == "-" {
      StandardOutput.write(svg)
      return
    }
    let data = Data(svg.utf8)
    do {
      try data.write(to: URL(fileURLWithPath: path), options: .atomic)
    } catch {
      throw NotFound(description: "cannot write \(path): \(SystemErrorText.reason(error))")
    }
    StandardOutput.write("Wrote \(vehicle)'s shift #\(shift) to \(path) (\(max(1, (data.count + 500) / 1000)) KB).\n")
  }

  public static func render(_ rows: OfficeShiftAnswer.Rows, vehicle: String) -> String {
    var content = ReportContentBuilder(result: OfficeShiftAnswer(rows).result).content
    content.title = "\(vehicle) · \(content.title)"
    return ShiftReportSVG.render(content)
  }

  /// The shift's rows: its message (if it came), its samples in time order, how their
  /// capture sessions ended, and its jobs.
  public static func read(_ connection: PostgresConnection, vehicle: String, shift: Int64) throws
    -> OfficeShiftAnswer.Rows
  {
    let key = [vehicle, String(shift)]
    let samples = try connection.execute(
      """
      SELECT extract(epoch FROM time), ST_Y(position), ST_X(position), accuracy, speed, course, capture_session, held,
        accuracy_assumed, dated_by_arrival
      FROM samples WHERE vehicle = $1 AND shift = $2 ORDER BY time
      """, key
    ).rows.compactMap(sample)
    var rows = OfficeShiftAnswer.Rows(shift: shift, samples: samples)
    let message = try connection.execute(
      """
      SELECT extract(epoch FROM started_at), extract(epoch FROM ended_at), started_by, ended_by, distance::text, summary
      FROM shifts WHERE vehicle = $1 AND shift = $2
      """, key)
    if let row = message.rows.first {
      rows.startedAt = row[0].flatMap(Double.init).map(Date.init(timeIntervalSince1970:))
      rows.endedAt = row[1].flatMap(Double.init).map(Date.init(timeIntervalSince1970:))
      rows.startedBy = row[2]
      rows.endedBy = row[3]
      rows.distance = try row[4].map { try ControlCoding.makeDecoder().decode(WireDistance.self, from: Data($0.utf8)) }
      rows.summary = row[5]
    }
    guard !samples.isEmpty || rows.startedAt != nil else {
      throw NotFound(description: "the office has no shift \(shift) of \(vehicle) (no shift message, no samples)")
    }
    for row in try connection.execute(
      """
      SELECT capture_session, reason FROM sessions
      WHERE vehicle = $1 AND event = 'end'
        AND capture_session IN (SELECT DISTINCT capture_session FROM samples WHERE vehicle = $1 AND shift = $2)
      """, key
    ).rows {
      if let session = row[0], let reason = row[1] { rows.sessionEnds[session] = reason }
    }
    rows.jobs = try connection.execute(
      "SELECT job::text FROM jobs WHERE vehicle = $1 AND shift = $2 ORDER BY visit_arrival NULLS LAST, id", key
    ).rows.compactMap { row in
      try row[0].map { try ControlCoding.makeDecoder().decode(WireJob.self, from: Data($0.utf8)) }
    }
    return rows
  }

  static func sample(_ row: [String?]) -> RouteSample? {
    guard let time = row[0].flatMap(Double.init), let lat = row[1].flatMap(Double.init),
      let lon = row[2].flatMap(Double.init), let accuracy = row[3].flatMap(Double.init)
    else { return nil }
    return RouteSample(
      timestamp: Date(timeIntervalSince1970: time), coordinate: GeoCoordinate(latitude: lat, longitude: lon),
      horizontalAccuracy: accuracy, speed: row[4].flatMap(Double.init), course: row[5].flatMap(Double.init),
      captureSessionID: row[6].map(CaptureSessionID.init), isHeld: row[7] == "t", isAccuracyAssumed: row[8] == "t",
      isDatedByArrival: row[9] == "t")
  }
}
