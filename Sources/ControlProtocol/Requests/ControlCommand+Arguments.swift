import DashPilotCore

// How each request's arguments are written on the wire: the other half of
// `ArgumentReader.read`, which reads them back.
extension ControlCommand {
  /// The members of `args`; empty for a request without arguments (then no `args` is sent).
  var arguments: [String: JSONValue] {
    switch self {
    case .status, .shiftStart, .shiftEnd, .routeClear, .events, .jobList: return [:]
    case .jobCancel(let id): return ["id": .string(id)]
    case .jobAssign(let job): return JobArguments.members(of: job)
    case .jobAssignAll(let list):
      var members: [String: JSONValue] = ["jobs": .array(list.jobs.map { .object(JobArguments.members(of: $0)) })]
      if list.more { members["more"] = .bool(true) }
      return members
    case .shifts(let page):
      var members: [String: JSONValue] = ["limit": .number(Double(page.limit))]
      if let before = page.before { members["before"] = .number(Double(before)) }
      if let text = page.since.flatMap(UTCTimestamp.string) { members["since"] = .string(text) }
      if let text = page.until.flatMap(UTCTimestamp.string) { members["until"] = .string(text) }
      return members
    case .shiftShow(let id), .export(let id): return ["id": .number(Double(id))]
    case .shiftResend(let arguments):
      var members: [String: JSONValue] = ["id": .number(Double(arguments.id))]
      if let text = arguments.since.flatMap(UTCTimestamp.string) { members["since"] = .string(text) }
      if let text = arguments.until.flatMap(UTCTimestamp.string) { members["until"] = .string(text) }
      return members
    case .backup(let arguments): return arguments.path.map { ["path": .string($0)] } ?? [:]
    case .placesLoad(let arguments): return ["geojson": .string(arguments.text)]
    case .import(let arguments):
      var members: [String: JSONValue] = [
        "points": .array(arguments.points.map(\.jsonValue)), "more": .bool(arguments.more),
      ]
      if let name = arguments.name { members["name"] = .string(name) }
      return members
    case .routeLoad(let arguments):
      var members: [String: JSONValue] = ["mode": .string(arguments.mode.rawValue)]
      if let inline = arguments.inline {
        members[inline.format.rawValue] = .string(inline.text)
      } else {
        members["coordinates"] = .array(arguments.coordinates.map(\.jsonValue))
        members["more"] = .bool(arguments.more)
      }
      if let name = arguments.name { members["name"] = .string(name) }
      return members
    case .report(let arguments):
      var members: [String: JSONValue] = ["id": .number(Double(arguments.id))]
      if !arguments.route.isEmpty || arguments.more {
        members["route"] = .array(arguments.route.map(\.jsonValue))
        members["mode"] = .string(arguments.mode.rawValue)
        members["more"] = .bool(arguments.more)
      }
      return members
    case .navigate(let arguments):
      var members: [String: JSONValue] = [
        "destination": arguments.destination.jsonValue, "mode": .string(arguments.mode.rawValue),
      ]
      if let name = arguments.name { members["name"] = .string(name) }
      return members
    }
  }
}
