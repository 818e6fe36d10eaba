import DashPilotCLI
import RouteFiles

// Called as dashpilot-route-reader (the package's link to this program), it is the reader
// dashpilotd runs for a route sent inline: one copy of the Swift runtime for both.
if RouteReaderProgram.isInvoked(as: CommandLine.arguments.first) {
  RouteReaderProgram.main(arguments: CommandLine.arguments)
}
// Route files (GPX, GeoJSON) are read and written here, on the client, with RouteFiles.
DashPilotCLI.main(hooks: .routeFiles)
