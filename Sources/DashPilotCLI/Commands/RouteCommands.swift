import ControlProtocol
import FoundationEssentials
import PlatformSupport

struct RouteLoadCommand: CLICommand {
  static let words = ["route", "load"]
  static let summary = "Follow the route in a GPX or GeoJSON file."
  static let help = """
    USAGE: dashpilotctl route load FILE [--mode driving|walking] [--json]

    Reads the route in FILE and has the daemon follow it: guidance says when the car
    has really left it and asks the routing engine for a new one. --mode (default
    driving) chooses the guidance thresholds. Only root, the daemon's user and members
    of the socket group may load a route.
    """

  static let coordinatesPerPart = 1000

  var path: String
  var mode: WireTravelMode

  init(arguments: inout ArgumentCursor) throws(UsageError) {
    mode = try parseMode(try arguments.option("--mode"), command: Self.name)
    path = try arguments.requiredPositional("the route FILE")
    try arguments.finish()
  }

  func run(_ context: CommandContext) -> ExitStatus {
    let route: RouteFileHooks.Route
    do {
      route = try context.hooks.readRoute(URL(fileURLWithPath: path))
    } catch {
      return context.report(.failed("cannot load \(path): \(error)"))
    }
    guard route.coordinates.count >= 2 else {
      return context.report(.failed("\(path) holds fewer than two route points"))
    }
    return context.withClient { client throws(ClientFailure) in
      let result = try client.request(
        RouteLoadArguments(name: route.name, mode: mode, coordinates: route.coordinates),
        inPartsOf: Self.coordinatesPerPart, as: RouteResult.self)
      if context.options.json {
        context.printJSON(result)
      } else {
        context.console.line("Following \(result.name ?? path) (\(result.mode.rawValue), \(result.points) points).")
      }
      return .success
    }
  }
}

struct RouteClearCommand: CLICommand {
  static let words = ["route", "clear"]
  static let summary = "Stop following the current route."
  static let help = """
    USAGE: dashpilotctl route clear [--json]

    Stops guidance: no route is followed and no reroute is asked for. Only root, the
    daemon's user and members of the socket group may clear the route.
    """

  init(arguments: inout ArgumentCursor) throws(UsageError) { try arguments.finish() }

  func run(_ context: CommandContext) -> ExitStatus {
    context.withClient { client throws(ClientFailure) in
      let result = try client.request(.routeClear, as: Acknowledgement.self)
      if context.options.json { context.printJSON(result) } else { context.console.line(result.message) }
      return .success
    }
  }
}

struct NavigateCommand: CLICommand {
  static let words = ["navigate"]
  static let summary = "Ask the routing engine for a route from here to LAT,LON and follow it."
  static let help = """
    USAGE: dashpilotctl navigate LAT,LON [--mode driving|walking] [--name NAME] [--json]

    Plans a route from the car's current position to LAT,LON (degrees, such as
    51.5074,-0.1278) with the configured routing engine, and follows it. With --name,
    the driver hears the destination's name when the route is followed and on arrival.
    Only root, the daemon's user and members of the socket group may navigate.
    """

  var destination: WireCoordinate
  var mode: WireTravelMode
  var name: String?

  init(arguments: inout ArgumentCursor) throws(UsageError) {
    mode = try parseMode(try arguments.option("--mode"), command: Self.name)
    name = try arguments.option("--name", value: "NAME")
    destination = try parseCoordinate(try arguments.requiredPositional("the destination LAT,LON"), command: Self.name)
    try arguments.finish()
  }

  func run(_ context: CommandContext) -> ExitStatus {
    context.withClient { client throws(ClientFailure) in
      client.setTimeout(90)
      let result = try client.request(
        .navigate(NavigateArguments(destination: destination, mode: mode, name: name)), as: RouteResult.self)
      if context.options.json {
        context.printJSON(result)
      } else {
        let units = "miles"
        context.console.line(
          "Following a \(result.mode.rawValue) route from \(result.source): \(HumanFormat.distance(metres: result.lengthMetres, units: units)), \(result.points) points."
        )
      }
      return .success
    }
  }
}
