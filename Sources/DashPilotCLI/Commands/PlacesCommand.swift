import Capture
import ControlProtocol
import DashPilotCore
import FoundationEssentials
import PlatformSupport

struct PlacesLoadCommand: CLICommand {
  static let words = ["places", "load"]
  static let summary = "Replace the daemon's places file with FILE, in effect at once."
  static let help = """
    USAGE: dashpilotctl places load FILE [--json]

    Reads FILE, a places file (a GeoJSON FeatureCollection of named points with a
    radius and polygons; see dashpilot.conf(5)), and has the daemon take it: the daemon
    reads it again with the reader it uses at start-up, writes it over its places file
    ([Places] File=) and uses it at once, for the stops shift show names, the places
    entered and left, and [Shift] EndAtPlace=. A file it refuses changes nothing. The
    socket takes a request of at most 64 KiB; a larger file is for the fleet's
    places.load (1 MiB). Only root, the daemon's user and members of the socket group
    may load places.
    """

  var path: String

  init(arguments: inout ArgumentCursor) throws(UsageError) {
    path = try arguments.requiredPositional("the places FILE")
    try arguments.finish()
  }

  /// The most bytes of places text a request on the socket can carry with its envelope.
  static let maximumBytes = ControlProtocolLimits.maximumLineLength - 1_024

  func run(_ context: CommandContext) -> ExitStatus {
    // Read here first, so a mistake names the file as start-up would, before anything is sent.
    do {
      _ = try PlacesFileReader.places(at: path)
    } catch {
      return context.report(.failed("cannot load places: \(error)"))
    }
    guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
      return context.report(.failed("cannot load places: \(path) is not UTF-8 text"))
    }
    guard text.utf8.count <= Self.maximumBytes else {
      return context.report(
        .failed(
          "cannot load places: \(path) is \(text.utf8.count) bytes; the control socket takes at most "
            + "\(Self.maximumBytes) in one request (send it with the fleet's places.load, up to 1 MiB)"))
    }
    return context.withClient { client throws(ClientFailure) in
      let result = try client.request(.placesLoad(PlacesLoadArguments(text: text)), as: PlacesLoadResult.self)
      if context.options.json {
        context.printJSON(result)
      } else {
        let count = result.places.count == 1 ? "1 place" : "\(result.places.count) places"
        let names = result.places.isEmpty ? "" : ": " + result.places.joined(separator: ", ")
        context.console.line("Places loaded into \(result.file) (\(count)\(names)).")
      }
      return .success
    }
  }
}
