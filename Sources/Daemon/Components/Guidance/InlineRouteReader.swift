import ControlProtocol
import DashPilotCore
import FoundationEssentials
import RouteFiles

/// Reads a route sent as a route file's text (`route.load` with `args.gpx` or
/// `args.geojson`) with RouteFiles, the reader of `dashpilotctl route load FILE`, so the box
/// refuses a text with the words the CLI uses for a file holding it, the argument named
/// where the CLI names the file. The format is the argument's: GPX text in `args.geojson` is
/// refused as JSON that is not JSON, as a `.geojson` file holding it would be.
enum InlineRouteReader {
  static func coordinates(of route: InlineRoute) -> Result<[WireCoordinate], ControlError> {
    let format: RouteFileFormat =
      switch route.format {
      case .gpx: .gpx
      case .geojson: .geojson
      }
    do {
      let read = try RouteFile.readRoute(Data(route.text.utf8), format: format, source: route.source)
      return .success(read.map { WireCoordinate(lat: $0.latitude, lon: $0.longitude) })
    } catch {
      return .failure(ControlError(.badArguments, "route.load: \(error.description)"))
    }
  }
}
