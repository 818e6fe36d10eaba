import DashPilotCore
import FoundationEssentials
import PlatformSupport

#if canImport(Glibc)
  import Glibc
#endif

/// `dashpilot-route-reader FORMAT SOURCE`: reads the text of a route file (FORMAT gpx or
/// geojson) on standard input, the way `dashpilotctl route load FILE` reads a file, and
/// writes its coordinates to standard output as JSON, `[{"lat":…,"lon":…},…]`, or the
/// reader's refusal to standard error, its errors naming SOURCE where the CLI's name the
/// file. dashpilotd runs it as a child for a route a fleet command sends inline, so that
/// libxml2 is mapped for the few milliseconds of a reading, in a process of its own, never
/// in the daemon; the text is the fleet's, which is why `XMLEventReader` trusts none of it.
///
/// Exit status: 0 read, 1 refused (the reader's words on standard error), 2 misused.
///
/// Two programs run it: the `dashpilot-route-reader` executable, and `dashpilotctl` when it
/// is called by that name (the package installs the reader as a link to dashpilotctl, so
/// the box carries one copy of the Swift runtime for both instead of two).
public enum RouteReaderProgram {
  public static let name = "dashpilot-route-reader"

  /// Whether a program started as `argument0` (its path, or its name) is the reader.
  public static func isInvoked(as argument0: String?) -> Bool {
    argument0.map { $0.split(separator: "/").last.map(String.init) == name } ?? false
  }

  /// Runs the reader with the process's arguments (the program's path first) and exits.
  public static func main(arguments: [String]) -> Never {
    let operands = arguments.dropFirst()
    guard operands.count == 2, let format = RouteFileFormat(rawValue: operands.first!) else {
      StandardError.write("usage: \(name) gpx|geojson SOURCE < TEXT\n")
      exit(2)
    }
    let text = Data(StandardInput.readToEnd())
    do {
      let route = try RouteFile.readRoute(text, format: format, source: operands.last!)
      // A Double's description is its shortest exact form, so the daemon reads back the
      // very numbers the CLI would have sent over the socket.
      let members = route.map { #"{"lat":\#($0.latitude),"lon":\#($0.longitude)}"# }
      StandardOutput.write("[" + members.joined(separator: ",") + "]\n")
      exit(0)
    } catch {
      StandardError.write(error.description + "\n")
      exit(1)
    }
  }
}
