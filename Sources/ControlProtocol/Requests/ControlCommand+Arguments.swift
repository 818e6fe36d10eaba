import DashPilotCore

// How each request's arguments are written on the wire: the other half of
// `ArgumentReader.read`, which reads them back.
extension ControlCommand {
  /// The members of `args`; empty for a request without arguments (then no `args` is sent).
  var arguments: [String: JSONValue] {
    switch self {
    case .status, .shiftStart, .shiftEnd, .routeClear, .events: return [:]
    case .shifts(let limit): return limit.map { ["limit": .number(Double($0))] } ?? [:]
    case .shiftShow(let id), .export(let id): return ["id": .number(Double(id))]
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
      return [
        "destination": arguments.destination.jsonValue, "mode": .string(arguments.mode.rawValue),
      ]
    }
  }
}
