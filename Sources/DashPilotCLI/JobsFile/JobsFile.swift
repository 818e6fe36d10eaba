import ControlProtocol
import DashPilotCore
import FoundationEssentials

/// A file of jobs for `dashpilotctl jobs import`: CSV with a header line, or a GeoJSON
/// FeatureCollection of Points. Both use the wire's names (`id`, `name`, `lat` and `lon` or
/// the Point, `radius_m`, `window_start`, `window_end`, `note`), and each job is read by
/// the one reader of `job.assign`'s arguments, so a file is refused for exactly what the
/// daemon would refuse, before anything is sent. Every problem is named with the file, the
/// line and the field; the file is taken whole or not at all. Pure: the caller reads the file.
enum JobsFile {
  /// One job and the line it came from.
  struct Entry: Equatable {
    var job: DeliveryJob
    var line: Int
  }

  /// What is wrong, where: "day.csv:4: \"radius_m\" must be a number of metres from 10 to 1000".
  struct Problem: Error, Equatable, CustomStringConvertible {
    var file: String
    /// From 1; nil for the file as a whole.
    var line: Int?
    /// "feature 3 (\"A-1\")" for a GeoJSON feature, nil for a CSV row.
    var feature: String?
    var message: String

    var description: String {
      [file + (line.map { ":\($0)" } ?? ""), feature, message].compactMap { $0 }.joined(separator: ": ")
    }
  }

  /// Every problem a file has, in the order of its lines.
  struct Problems: Error, Equatable {
    var list: [Problem]
    init(_ list: [Problem]) { self.list = list }
  }

  /// The most bytes read: a queue's worth of jobs with long notes is well under it.
  static let maximumBytes = 4 * 1_048_576

  /// The jobs of `data`, in the file's order, or every problem found. GeoJSON when the
  /// first character that is not a space is `{`, CSV otherwise.
  static func jobs(from data: Data, file: String) -> Result<[Entry], Problems> {
    guard data.count <= maximumBytes else {
      return .failure(
        Problems([Problem(file: file, message: "is larger than 4 MiB; a queue holds at most \(JobQueue.bound) jobs")]))
    }
    var text = String(decoding: data, as: UTF8.self)
    if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
    let first = text.first { !$0.isWhitespace }
    let read = first == "{" ? JobsGeoJSON.entries(text, file: file) : JobsCSV.entries(text, file: file)
    guard case .success(let entries) = read else { return read }
    var problems: [Problem] = []
    if entries.isEmpty { problems.append(Problem(file: file, message: "holds no job")) }
    if entries.count > JobQueue.bound {
      problems.append(
        Problem(file: file, message: "holds \(entries.count) jobs; the queue holds at most \(JobQueue.bound)"))
    }
    var firstLine: [String: Int] = [:]
    for entry in entries {
      if let line = firstLine[entry.job.id] {
        problems.append(
          Problem(file: file, line: entry.line, message: "\"id\" \(entry.job.id) is given before, on line \(line)"))
      } else {
        firstLine[entry.job.id] = entry.line
      }
    }
    return problems.isEmpty ? .success(entries) : .failure(Problems(problems))
  }

  /// The wire's `job.assign` arguments for a job given as `fields` (the file's names, each
  /// value already a JSON value; `lat` and `lon` become the destination), read by the one
  /// reader; a problem is the reader's words.
  static func job(_ fields: [String: JSONValue], lat: Double, lon: Double) -> Result<DeliveryJob, JobArgumentProblem> {
    guard GeoCoordinate(latitude: lat, longitude: lon).isValid else {
      return .failure(
        JobArgumentProblem(
          message: "\(lat),\(lon) is not a position on Earth (\"lat\" within ±90, \"lon\" within ±180)"))
    }
    var members = fields
    members["destination"] = .object(["lat": .number(lat), "lon": .number(lon)])
    return JobArguments.job(from: members)
  }
}
