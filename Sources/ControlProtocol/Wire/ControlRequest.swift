import DashPilotCore
import FoundationEssentials

/// A request after the parser has checked it: a known command with arguments of the
/// right shape. Nothing downstream of the parser ever sees unchecked input.
public struct ControlRequest: Sendable, Hashable {
  public var id: RequestID
  public var command: ControlCommand
  public var arguments: ControlArguments
  /// When the sender stops wanting it done (`expires_at`): a command still undelivered by
  /// then is refused with `expired`, not run. Nil: whenever it arrives.
  public var expiresAt: Date?

  public init(id: RequestID, command: ControlCommand, arguments: ControlArguments = .none, expiresAt: Date? = nil) {
    self.id = id
    self.command = command
    self.arguments = arguments
    self.expiresAt = expiresAt
  }

  /// The request as one line of JSON, newline included: what the client writes.
  public func encodedLine() -> Data {
    var members: [String: JSONValue] = [
      "v": .number(Double(ControlProtocolLimits.version)),
      "id": id.jsonValue,
      "cmd": .string(command.rawValue),
    ]
    let arguments = arguments.jsonObject
    if !arguments.isEmpty { members["args"] = .object(arguments) }
    if let expiresAt, let text = UTCTimestamp.string(expiresAt) { members["expires_at"] = .string(text) }
    return ControlCoding.line(JSONValue.object(members))
  }
}

/// The checked arguments of each command.
public enum ControlArguments: Sendable, Hashable {
  case none
  case shifts(limit: Int?)
  case shiftShow(id: Int64)
  case export(id: Int64)
  case report(ReportArguments)
  case `import`(ImportArguments)
  case routeLoad(RouteLoadArguments)
  case navigate(NavigateArguments)

  var jsonObject: [String: JSONValue] {
    switch self {
    case .none: return [:]
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

/// How a route is travelled, as the wire spells it (the Guidance module's `TravelMode`
/// has the same raw values; the protocol does not depend on it).
public enum WireTravelMode: String, Sendable, Hashable, Codable, CaseIterable {
  case driving
  case walking
}

/// A position on the wire, in degrees.
public struct WireCoordinate: Sendable, Hashable, Codable {
  public var lat: Double
  public var lon: Double

  public init(lat: Double, lon: Double) {
    self.lat = lat
    self.lon = lon
  }

  var jsonValue: JSONValue { .object(["lat": .number(lat), "lon": .number(lon)]) }
}

/// A recorded position on the wire: where, when (seconds since 1970 UTC, so a track of
/// thousands of points needs no date parsing) and, when known, the horizontal error in
/// metres.
public struct WireTrackPoint: Sendable, Hashable, Codable {
  public var lat: Double
  public var lon: Double
  public var time: Double
  /// Metres (95 %), when the file gave an error estimate; without one the daemon judges
  /// the point with its assumed accuracy.
  public var accuracy: Double?
  /// The logger's fix type as GPX writes it (one of `fixTypes`).
  public var fix: String?
  public static let fixTypes: Set<String> = ["none", "2d", "3d", "dgps", "pps"]
  /// Ground speed, m/s.
  public var speed: Double?

  public init(
    lat: Double, lon: Double, time: Double, accuracy: Double? = nil, fix: String? = nil, speed: Double? = nil
  ) {
    self.lat = lat
    self.lon = lon
    self.time = time
    self.accuracy = accuracy
    self.fix = fix
    self.speed = speed
  }

  var jsonValue: JSONValue {
    var members: [String: JSONValue] = ["lat": .number(lat), "lon": .number(lon), "time": .number(time)]
    if let accuracy { members["accuracy"] = .number(accuracy) }
    if let fix { members["fix"] = .string(fix) }
    if let speed { members["speed"] = .number(speed) }
    return .object(members)
  }
}

/// A track from another logger, sent in parts because one line holds at most 64 KiB: every
/// part but the last says `more`, and the daemon hands the assembled track to the store
/// once the last part arrives on the same connection.
public struct ImportArguments: Sendable, Hashable {
  public var name: String?
  public var points: [WireTrackPoint]
  public var more: Bool

  public init(name: String? = nil, points: [WireTrackPoint], more: Bool = false) {
    self.name = name
    self.points = points
    self.more = more
  }
}

/// A route to follow: coordinates, sent in parts like an import, or the whole text of a
/// route file (`inline`, never in parts; `coordinates` is then empty).
public struct RouteLoadArguments: Sendable, Hashable {
  public var name: String?
  public var mode: WireTravelMode
  public var coordinates: [WireCoordinate]
  public var more: Bool
  public var inline: InlineRoute?

  public init(
    name: String? = nil, mode: WireTravelMode, coordinates: [WireCoordinate], more: Bool = false,
    inline: InlineRoute? = nil
  ) {
    self.name = name
    self.mode = mode
    self.coordinates = coordinates
    self.more = more
    self.inline = inline
  }
}

public struct NavigateArguments: Sendable, Hashable {
  public var destination: WireCoordinate
  public var mode: WireTravelMode

  public init(destination: WireCoordinate, mode: WireTravelMode) {
    self.destination = destination
    self.mode = mode
  }
}
