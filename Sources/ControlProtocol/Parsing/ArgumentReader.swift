import DashPilotCore
import FoundationEssentials

/// Why an argument was refused, as a phrase naming the argument.
struct ArgumentFailure: Error {
  var message: String
}

/// Reads one command's arguments strictly: the right types, values in range, and no
/// argument the command does not take (a typo is an error, not silently ignored).
struct ArgumentReader {
  let kind: ControlCommand.Kind
  let members: [String: JSONValue]
  private var consumed: Set<String> = []

  /// The most points one assembled import or route may hold; a part that would pass it is
  /// refused (the server also counts across parts).
  static let maximumPointsPerPart = 20_000

  init(kind: ControlCommand.Kind, members: [String: JSONValue]) {
    self.kind = kind
    self.members = members
  }

  /// The request of this kind that the arguments make.
  mutating func read() throws(ArgumentFailure) -> ControlCommand {
    switch kind {
    case .status: return .status
    case .shiftStart: return .shiftStart
    case .shiftEnd: return .shiftEnd
    case .routeClear: return .routeClear
    case .events: return .events
    case .jobList: return .jobList
    case .jobCancel: return .jobCancel(id: try jobID())
    case .jobAssign: return .jobAssign(try job())
    case .jobAssignAll: return .jobAssignAll(try jobList())
    case .shifts:
      let limit = try optionalInteger("limit", range: 1...Int64(ShiftsArguments.maximumLimit))
      let before = try optionalInteger("before", range: 1...Int64.max)
      let since = try optionalTime("since")
      let until = try optionalTime("until")
      if let since, let until, until <= since {
        throw ArgumentFailure(message: "\"until\" must come after \"since\"")
      }
      return .shifts(
        ShiftsArguments(
          limit: limit.map { Int($0) } ?? ShiftsArguments.defaultLimit, before: before, since: since, until: until))
    case .backup:
      let path = try optionalString("path")
      if let path, !path.hasPrefix("/") || path.utf8.count > 4_096 {
        throw ArgumentFailure(
          message: "\"path\" must be an absolute path (the daemon's working directory is not yours)")
      }
      return .backup(BackupArguments(path: path))
    case .placesLoad:
      let text: String
      switch take("geojson") {
      case .string(let string)?: text = string
      case .object(let members)?: text = ControlCoding.text(JSONValue.object(members))
      case nil, .null?: throw ArgumentFailure(message: "needs \"geojson\": the places file's FeatureCollection")
      default: throw ArgumentFailure(message: "\"geojson\" must be a GeoJSON object, or its text as a string")
      }
      guard text.utf8.count <= PlacesLoadArguments.maximumBytes else {
        throw ArgumentFailure(
          message:
            "\"geojson\" is \(text.utf8.count) bytes; places sent inline are at most \(PlacesLoadArguments.maximumBytes)"
        )
      }
      return .placesLoad(PlacesLoadArguments(text: text))
    case .shiftShow:
      return .shiftShow(id: try requiredInteger("id", range: 1...Int64.max))
    case .shiftResend:
      let id = try requiredInteger("id", range: 1...Int64.max)
      let since = try optionalTime("since")
      let until = try optionalTime("until")
      if let since, let until, until < since {
        throw ArgumentFailure(message: "\"until\" must not come before \"since\"")
      }
      return .shiftResend(ShiftResendArguments(id: id, since: since, until: until))
    case .export:
      return .export(id: try requiredInteger("id", range: 1...Int64.max))
    case .report:
      let id = try requiredInteger("id", range: 1...Int64.max)
      let mode = try optionalMode("mode") ?? .driving
      // No route (absent or null) is a report without one.
      let values = take("route") == nil ? [] : try array("route")
      let route = try values.enumerated().map { index, value throws(ArgumentFailure) in
        try coordinate(value, label: "route[\(index)]")
      }
      return .report(ReportArguments(id: id, mode: mode, route: route, more: try optionalBool("more") ?? false))
    case .import:
      let name = try optionalString("name")
      let points = try array("points").enumerated().map { index, value throws(ArgumentFailure) in
        try trackPoint(value, at: index)
      }
      return .import(ImportArguments(name: name, points: points, more: try optionalBool("more") ?? false))
    case .routeLoad:
      let name = try optionalString("name")
      let mode = try optionalMode("mode") ?? .driving
      if let inline = try inlineRoute() {
        guard try optionalBool("more") != true else {
          throw ArgumentFailure(
            message:
              "\"more\" is for coordinates sent in parts; a route sent as \"\(inline.format.rawValue)\" comes whole")
        }
        return .routeLoad(RouteLoadArguments(name: name, mode: mode, coordinates: [], inline: inline))
      }
      let coordinates = try array("coordinates").enumerated().map { index, value throws(ArgumentFailure) in
        try coordinate(value, label: "coordinates[\(index)]")
      }
      return .routeLoad(
        RouteLoadArguments(
          name: name, mode: mode, coordinates: coordinates, more: try optionalBool("more") ?? false))
    case .navigate:
      guard let destination = take("destination") else { throw ArgumentFailure(message: "needs \"destination\"") }
      let target = try coordinate(destination, label: "destination")
      let mode = try optionalMode("mode") ?? .driving
      return .navigate(NavigateArguments(destination: target, mode: mode, name: try optionalString("name")))
    }
  }

  /// Refuses arguments the command does not take.
  func finish() throws(ArgumentFailure) {
    let extra = Set(members.keys).subtracting(consumed).sorted()
    if let first = extra.first {
      throw ArgumentFailure(message: "does not take the argument \"\(RequestParser.truncated(first))\"")
    }
  }

  mutating func take(_ key: String) -> JSONValue? {
    consumed.insert(key)
    if case .null? = members[key] { return nil }
    return members[key]
  }

  private mutating func requiredInteger(_ key: String, range: ClosedRange<Int64>) throws(ArgumentFailure) -> Int64 {
    guard let value = try optionalInteger(key, range: range) else {
      throw ArgumentFailure(message: "needs an integer \"\(key)\"")
    }
    return value
  }

  private mutating func optionalInteger(_ key: String, range: ClosedRange<Int64>) throws(ArgumentFailure) -> Int64? {
    guard let value = take(key) else { return nil }
    guard let integer = value.integerValue else {
      throw ArgumentFailure(message: "\"\(key)\" must be an integer")
    }
    guard range.contains(integer) else {
      throw ArgumentFailure(message: "\"\(key)\" must be between \(range.lowerBound) and \(range.upperBound)")
    }
    return integer
  }

  mutating func optionalString(_ key: String) throws(ArgumentFailure) -> String? {
    guard let value = take(key) else { return nil }
    guard let string = value.stringValue else { throw ArgumentFailure(message: "\"\(key)\" must be a string") }
    guard string.utf8.count <= 256 else { throw ArgumentFailure(message: "\"\(key)\" is longer than 256 bytes") }
    return string
  }

  /// A UTC time as `UTCTimestamp` writes it ("2026-11-01T00:00:00.000Z", or without the
  /// fraction).
  mutating func optionalTime(_ key: String) throws(ArgumentFailure) -> Date? {
    guard let text = try optionalString(key) else { return nil }
    guard let time = Self.wireTime(text) else {
      throw ArgumentFailure(message: "\"\(key)\" must be a UTC time such as 2026-11-01T00:00:00Z")
    }
    return time
  }

  /// A UTC time as the wire carries it: to the millisecond, as `UTCTimestamp` writes it, so
  /// a request read and written again is the same request (a finer fraction is rounded; a
  /// year it cannot write is no time).
  static func wireTime(_ text: String) -> Date? {
    guard let time = UTCTimestamp.parse(text), let written = UTCTimestamp.string(time) else { return nil }
    return UTCTimestamp.parse(written)
  }

  mutating func optionalBool(_ key: String) throws(ArgumentFailure) -> Bool? {
    guard let value = take(key) else { return nil }
    guard case .bool(let flag) = value else { throw ArgumentFailure(message: "\"\(key)\" must be true or false") }
    return flag
  }

  private mutating func optionalMode(_ key: String) throws(ArgumentFailure) -> WireTravelMode? {
    guard let value = take(key) else { return nil }
    guard let name = value.stringValue, let mode = WireTravelMode(rawValue: name) else {
      throw ArgumentFailure(message: "\"\(key)\" must be \"driving\" or \"walking\"")
    }
    return mode
  }

  mutating func array(_ key: String) throws(ArgumentFailure) -> [JSONValue] {
    guard let value = take(key) else { throw ArgumentFailure(message: "needs an array \"\(key)\"") }
    guard let elements = value.arrayValue else { throw ArgumentFailure(message: "\"\(key)\" must be an array") }
    guard elements.count <= Self.maximumPointsPerPart else {
      throw ArgumentFailure(
        message: "\"\(key)\" has \(elements.count) elements; one part holds at most \(Self.maximumPointsPerPart)")
    }
    return elements
  }

  /// The route of a `route.load` sent as a file's text (`gpx`, `geojson`), nil when it is
  /// sent as `coordinates`; exactly one of the three.
  private mutating func inlineRoute() throws(ArgumentFailure) -> InlineRoute? {
    let forms = (["coordinates"] + InlineRoute.Format.allCases.map(\.rawValue)).sorted()
    let given = forms.filter { members[$0] != nil && members[$0] != .null }
    // A null one is absent, as for every argument.
    for form in forms where members[form] == .null { consumed.insert(form) }
    guard given.count <= 1 else {
      throw ArgumentFailure(
        message: "takes the route once, as \"coordinates\", \"geojson\" or \"gpx\"; it has "
          + given.map { "\"\($0)\"" }.joined(separator: " and "))
    }
    guard let form = given.first else {
      throw ArgumentFailure(message: "needs the route, as \"coordinates\", \"geojson\" or \"gpx\"")
    }
    guard let format = InlineRoute.Format(rawValue: form), let value = take(form) else { return nil }
    let text: String
    switch (format, value) {
    case (_, .string(let string)): text = string
    case (.geojson, .object): text = ControlCoding.text(value)
    case (.geojson, _):
      throw ArgumentFailure(message: "\"geojson\" must be a GeoJSON object, or its text as a string")
    case (.gpx, _): throw ArgumentFailure(message: "\"gpx\" must be a string: the GPX document's text")
    }
    let bytes = text.utf8.count
    guard bytes <= InlineRoute.maximumBytes else {
      throw ArgumentFailure(
        message: "\"\(form)\" is \(bytes) bytes; a route sent inline is at most \(InlineRoute.maximumBytes)")
    }
    return InlineRoute(format: format, text: text)
  }

  func coordinate(_ value: JSONValue, label: String) throws(ArgumentFailure) -> WireCoordinate {
    guard case .object(let fields) = value, Set(fields.keys) == ["lat", "lon"],
      let lat = fields["lat"]?.numberValue, let lon = fields["lon"]?.numberValue
    else { throw ArgumentFailure(message: "\(label) must be {\"lat\":…,\"lon\":…}") }
    try checkPosition(lat: lat, lon: lon, label: label)
    return WireCoordinate(lat: lat, lon: lon)
  }

  private func trackPoint(_ value: JSONValue, at index: Int) throws(ArgumentFailure) -> WireTrackPoint {
    let label = "points[\(index)]"
    guard case .object(let fields) = value,
      Set(fields.keys).isSubset(of: ["lat", "lon", "time", "accuracy", "fix", "speed"]),
      let lat = fields["lat"]?.numberValue, let lon = fields["lon"]?.numberValue,
      let time = fields["time"]?.numberValue
    else {
      throw ArgumentFailure(
        message: "\(label) must be {\"lat\":…,\"lon\":…,\"time\":…[,\"accuracy\":…][,\"fix\":…][,\"speed\":…]}")
    }
    try checkPosition(lat: lat, lon: lon, label: label)
    guard time.isFinite, time >= 0, time < 32_503_680_000 else {
      throw ArgumentFailure(message: "\(label).time must be seconds since 1970 before the year 3000")
    }
    var accuracy: Double?
    if let field = fields["accuracy"], field != .null {
      guard let value = field.numberValue, value.isFinite, value >= 0 else {
        throw ArgumentFailure(message: "\(label).accuracy must be a non-negative number of metres")
      }
      accuracy = value
    }
    var fix: String?
    if let field = fields["fix"], field != .null {
      guard let value = field.stringValue, WireTrackPoint.fixTypes.contains(value) else {
        throw ArgumentFailure(
          message: "\(label).fix must be one of \(WireTrackPoint.fixTypes.sorted().joined(separator: ", "))")
      }
      fix = value
    }
    var speed: Double?
    if let field = fields["speed"], field != .null {
      guard let value = field.numberValue, value.isFinite, value >= 0 else {
        throw ArgumentFailure(message: "\(label).speed must be a non-negative number of metres per second")
      }
      speed = value
    }
    return WireTrackPoint(lat: lat, lon: lon, time: time, accuracy: accuracy, fix: fix, speed: speed)
  }

  private func checkPosition(lat: Double, lon: Double, label: String) throws(ArgumentFailure) {
    guard lat.isFinite, lon.isFinite, abs(lat) <= 90, abs(lon) <= 180 else {
      throw ArgumentFailure(message: "\(label) is not a position on Earth (latitude within ±90, longitude within ±180)")
    }
  }
}
