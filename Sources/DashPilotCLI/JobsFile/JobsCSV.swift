import ControlProtocol
import DashPilotCore
import FoundationEssentials
import PlatformSupport

/// Jobs as CSV: a header line naming the columns (`id`, `name`, `lat`, `lon`, and any of
/// `radius_m`, `window_start`, `window_end`, `note`, in any order), then a job a line. A
/// field with a comma or a quote is quoted, a quote in it doubled (RFC 4180); an empty field
/// is a value not given; blank lines are skipped.
enum JobsCSV {
  static let required = ["id", "name", "lat", "lon"]
  static let optional = ["radius_m", "window_start", "window_end", "note"]

  static func entries(_ text: String, file: String) -> Result<[JobsFile.Entry], JobsFile.Problems> {
    var header: [String]?
    var entries: [JobsFile.Entry] = []
    var problems: [JobsFile.Problem] = []
    // "\r\n" is one Character in Swift: a line ends at either.
    let records = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" }
    for (index, record) in records.enumerated() {
      let line = index + 1
      func problem(_ message: String) { problems.append(JobsFile.Problem(file: file, line: line, message: message)) }
      guard !record.allSatisfy({ $0 == " " || $0 == "\t" }) else { continue }
      guard let fields = Self.fields(of: record) else {
        problem("a quoted field is not closed on its line")
        continue
      }
      guard let columns = header else {
        switch Self.header(fields) {
        case .success(let names): header = names
        case .failure(let failure):
          problem(failure.message)
          return .failure(JobsFile.Problems(problems))
        }
        continue
      }
      guard fields.count == columns.count else {
        problem("has \(fields.count) fields; the header names \(columns.count) columns")
        continue
      }
      switch Self.job(Dictionary(uniqueKeysWithValues: zip(columns, fields))) {
      case .success(let job): entries.append(JobsFile.Entry(job: job, line: line))
      case .failure(let failure): problem(failure.message)
      }
    }
    if header == nil { problems.append(JobsFile.Problem(file: file, message: "holds no header line")) }
    return problems.isEmpty ? .success(entries) : .failure(JobsFile.Problems(problems))
  }

  /// The header's column names, or why it is not one.
  static func header(_ fields: [String]) -> Result<[String], HeaderProblem> {
    let known = required + optional
    let names = fields.map { $0.trimmingSpacesAndTabs }
    if let unknown = names.first(where: { !known.contains($0) }) {
      return .failure(
        HeaderProblem(
          "the header names the column \"\(unknown)\"; the columns are \(known.joined(separator: ", ")) "
            + "(the first four needed)"))
    }
    if let missing = required.first(where: { !names.contains($0) }) {
      return .failure(
        HeaderProblem("the header has no column \"\(missing)\": \(required.joined(separator: ", ")) are needed"))
    }
    if let twice = names.first(where: { name in names.filter { $0 == name }.count > 1 }) {
      return .failure(HeaderProblem("the header names the column \"\(twice)\" twice"))
    }
    return .success(names)
  }

  struct HeaderProblem: Error {
    var message: String
    init(_ message: String) { self.message = message }
  }

  /// A row's job: numbers for `lat`, `lon` and `radius_m`, text for the rest.
  static func job(_ row: [String: String]) -> Result<DeliveryJob, JobArgumentProblem> {
    func number(_ column: String, _ what: String) -> Result<Double?, JobArgumentProblem> {
      guard let text = row[column]?.trimmingSpacesAndTabs, !text.isEmpty else { return .success(nil) }
      guard let value = Double(text), value.isFinite else {
        return .failure(JobArgumentProblem(message: "\"\(column)\" must be \(what), not \"\(text)\""))
      }
      return .success(value)
    }
    let lat: Double?
    let lon: Double?
    let radius: Double?
    switch (
      number("lat", "a number of degrees"), number("lon", "a number of degrees"),
      number("radius_m", "a number of metres")
    ) {
    case (.failure(let problem), _, _), (_, .failure(let problem), _), (_, _, .failure(let problem)):
      return .failure(problem)
    case (.success(let a), .success(let b), .success(let c)): (lat, lon, radius) = (a, b, c)
    }
    guard let lat, let lon else {
      return .failure(JobArgumentProblem(message: "needs \"lat\" and \"lon\": where the job is, in degrees"))
    }
    var fields: [String: JSONValue] = [:]
    for column in ["id", "name", "window_start", "window_end", "note"] {
      if let text = row[column], !text.isEmpty { fields[column] = .string(text) }
    }
    if let radius { fields["radius_m"] = .number(radius) }
    return JobsFile.job(fields, lat: lat, lon: lon)
  }

  /// The fields of one line, nil when a quoted field does not end on it.
  static func fields(of line: Substring) -> [String]? {
    var fields: [String] = []
    var field = ""
    var quoted = false
    var wasQuoted = false
    var characters = line.makeIterator()
    var pending: Character? = characters.next()
    while let character = pending {
      pending = characters.next()
      if quoted {
        if character == "\"" {
          if pending == "\"" {
            field.append("\"")
            pending = characters.next()
          } else {
            quoted = false
          }
        } else {
          field.append(character)
        }
      } else if character == "," {
        fields.append(wasQuoted ? field : field.trimmingSpacesAndTabs)
        field = ""
        wasQuoted = false
      } else if character == "\"" && field.allSatisfy({ $0 == " " || $0 == "\t" }) {
        quoted = true
        wasQuoted = true
        field = ""
      } else {
        field.append(character)
      }
    }
    guard !quoted else { return nil }
    fields.append(wasQuoted ? field : field.trimmingSpacesAndTabs)
    return fields
  }
}
