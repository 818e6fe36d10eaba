// dashpilot-route-reader FORMAT SOURCE: reads the text of a route file (FORMAT gpx or
// geojson) on standard input with RouteFiles, the reader of `dashpilotctl route load FILE`,
// and writes its coordinates to standard output as JSON, `[{"lat":…,"lon":…},…]`, or the
// reader's refusal to standard error, its errors naming SOURCE where the CLI's name the
// file. dashpilotd runs it as a child for a route a fleet command sends inline, so that
// libxml2 is mapped for the few milliseconds of a reading, in a process of its own, never
// in the daemon (see Package.swift); the text is the fleet's, so the reader is set up for
// hostile input (RouteFiles' XMLEventReader).
//
// Exit status: 0 read, 1 refused (the reader's words on standard error), 2 misused.
import DashPilotCore
import FoundationEssentials
import PlatformSupport
import RouteFiles

#if canImport(Glibc)
  import Glibc
#endif

let arguments = CommandLine.arguments.dropFirst()
guard arguments.count == 2, let format = RouteFileFormat(rawValue: arguments.first!) else {
  StandardError.write("usage: dashpilot-route-reader gpx|geojson SOURCE < TEXT\n")
  exit(2)
}
let source = arguments.last!
let text = Data(StandardInput.readToEnd())
do {
  let route = try RouteFile.readRoute(text, format: format, source: source)
  // A Double's description is its shortest exact form, so the daemon reads back the very
  // numbers the CLI would have sent over the socket.
  let members = route.map { #"{"lat":\#($0.latitude),"lon":\#($0.longitude)}"# }
  StandardOutput.write("[" + members.joined(separator: ",") + "]\n")
  exit(0)
} catch {
  StandardError.write(error.description + "\n")
  exit(1)
}
