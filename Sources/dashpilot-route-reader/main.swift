// dashpilot-route-reader FORMAT SOURCE: the reader dashpilotd runs for a route a fleet
// command sends inline (see RouteReaderProgram). The package installs dashpilotctl under
// this name instead of this executable; the build directory and `make install`'s tests of
// it run this one, the same code.
import RouteFiles

RouteReaderProgram.main(arguments: CommandLine.arguments)
