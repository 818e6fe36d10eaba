// dashpilot-route-reader FORMAT SOURCE: reads the text of a route file (FORMAT gpx or
// geojson) on standard input with RouteFiles, the reader of `dashpilotctl route load FILE`,
// and writes its coordinates to standard output as JSON, `[{"lat":…,"lon":…},…]`, or the
// reader's refusal to standard error, its errors naming SOURCE where the CLI's name the
// file. dashpilotd runs it as a child for a route a fleet command sends inline, so that
// Foundation, ICU and libxml2 are mapped for the few milliseconds of a reading, in a
// process of their own, never in the daemon (see Package.swift).
//
// Exit status: 0 read, 1 refused (the reader's words on standard error), 2 misused.
import DashPilotCore
import Foundation
import RouteFiles

#if canImport(Glibc)
  import Glibc
#endif

let arguments = CommandLine.arguments.dropFirst()
guard arguments.count == 2, let format = RouteFileFormat(rawValue: arguments.first!) else {
  FileHandle.standardError.write(Data("usage: dashpilot-route-reader gpx|geojson SOURCE < TEXT\n".utf8))
  exit(2)
}
let source = arguments.last!
let text = FileHandle.standardInput.readDataToEndOfFile()
do {
  let route = try RouteFile.readRoute(text, format: format, source: source)
  // A Double's description is its shortest exact form, so the daemon reads back the very
  // numbers the CLI would have sent over the socket.
  let members = route.map { #"{"lat":\#($0.latitude),"lon":\#($0.longitude)}"# }
  FileHandle.standardOutput.write(Data(("[" + members.joined(separator: ",") + "]\n").utf8))
  exit(0)
} catch {
  FileHandle.standardError.write(Data((error.description + "\n").utf8))
  exit(1)
}
