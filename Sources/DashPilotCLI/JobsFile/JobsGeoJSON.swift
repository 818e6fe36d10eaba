import ControlProtocol
import DashPilotCore
import FoundationEssentials

/// Jobs as GeoJSON (RFC 7946): a FeatureCollection, a job a Feature whose geometry is a
/// Point (`[longitude, latitude]`) and whose properties are `id` (a string, or an integer
/// taken as its digits), `name`, and optionally `radius_m`, `window_start`, `window_end`
/// and `note`. Other properties are the office's and are ignored, as the places file's are.
/// A problem names the line the feature begins on and the feature, counting from 1, with
/// its id.
enum JobsGeoJSON {
  static let properties = ["id", "name", "radius_m", "window_start", "window_end", "note"]

  static func entries(_ text: String, file: String) -> Result<[JobsFile.Entry], JobsFile.Problems> {
    func whole(_ message: String) -> Result<[JobsFile.Entry], JobsFile.Problems> {
      .failure(JobsFile.Problems([JobsFile.Problem(file: file, message: message)]))
    }
    let document: JSONValue
    do {
      document = try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
    } catch {
      return whole("is neither CSV nor JSON: it begins with \"{\" but is not valid JSON")
    }
    guard document["type"]?.stringValue == "FeatureCollection", let features = document["features"]?.arrayValue else {
      return whole(
        "is not a GeoJSON FeatureCollection of jobs (its type is \(document["type"]?.stringValue.map { "\"\($0)\"" } ?? "missing"))"
      )
    }
    let lines = featureLines(text)
    var entries: [JobsFile.Entry] = []
    var problems: [JobsFile.Problem] = []
    for (index, feature) in features.enumerated() {
      let line = index < lines.count ? lines[index] : 1
      let id = Self.id(feature["properties"]?["id"])
      let label = "feature \(index + 1)" + (id.map { " (\"\($0)\")" } ?? "")
      switch Self.job(feature, id: id) {
      case .success(let job): entries.append(JobsFile.Entry(job: job, line: line))
      case .failure(let failure):
        problems.append(JobsFile.Problem(file: file, line: line, feature: label, message: failure.message))
      }
    }
    return problems.isEmpty ? .success(entries) : .failure(JobsFile.Problems(problems))
  }

  static func job(_ feature: JSONValue, id: String?) -> Result<DeliveryJob, JobArgumentProblem> {
    guard feature["type"]?.stringValue == "Feature" else {
      return .failure(JobArgumentProblem(message: "is not a GeoJSON Feature"))
    }
    guard let geometry = feature["geometry"], geometry["type"]?.stringValue == "Point",
      let position = geometry["coordinates"]?.arrayValue, position.count >= 2,
      let lon = position[0].numberValue, let lat = position[1].numberValue
    else {
      return .failure(JobArgumentProblem(message: "a job is a Point geometry with coordinates [longitude, latitude]"))
    }
    var fields: [String: JSONValue] = [:]
    for name in properties {
      if let value = feature["properties"]?[name], value != .null { fields[name] = value }
    }
    if let id { fields["id"] = .string(id) }
    return JobsFile.job(fields, lat: lat, lon: lon)
  }

  /// A feature's id: a string as it is, an integer as its digits.
  static func id(_ value: JSONValue?) -> String? {
    if let text = value?.stringValue { return text }
    return value?.integerValue.map(String.init)
  }

  /// The line each member of the top-level `features` array begins on, in order: the JSON
  /// parser keeps no positions, so the text is scanned for the objects at that depth.
  static func featureLines(_ text: String) -> [Int] {
    var lines: [Int] = []
    var line = 1
    var depth = 0
    var inString = false
    var escaped = false
    var string: [UInt8] = []
    var lastString: [UInt8]?
    var awaitingArray = false
    var featuresDepth: Int?
    for byte in text.utf8 {
      if byte == UInt8(ascii: "\n") { line += 1 }
      if inString {
        if escaped {
          escaped = false
        } else if byte == UInt8(ascii: "\\") {
          escaped = true
        } else if byte == UInt8(ascii: "\"") {
          inString = false
          lastString = string
        } else {
          string.append(byte)
        }
        continue
      }
      switch byte {
      case UInt8(ascii: "\""):
        inString = true
        string = []
      case UInt8(ascii: ":"):
        awaitingArray = depth == 1 && lastString == Array("features".utf8)
      case UInt8(ascii: "["), UInt8(ascii: "{"):
        if byte == UInt8(ascii: "{"), featuresDepth == depth { lines.append(line) }
        if byte == UInt8(ascii: "["), awaitingArray { featuresDepth = depth + 1 }
        awaitingArray = false
        depth += 1
      case UInt8(ascii: "]"), UInt8(ascii: "}"):
        depth -= 1
        if featuresDepth == depth + 1, byte == UInt8(ascii: "]") { featuresDepth = nil }
      case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"):
        break
      default:
        awaitingArray = false
        lastString = nil
      }
    }
    return lines
  }
}
