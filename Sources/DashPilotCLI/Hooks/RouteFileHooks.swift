import ControlProtocol
import FoundationEssentials

/// Route files are read and written by the client: the daemon is sent coordinates (it
/// reads a route's text itself only when a fleet command sends it inline). `dashpilotctl`
/// runs with `.routeFiles` (RouteFiles does the reading and writing); tests pass hooks of
/// their own to `DashPilotCLI.run`.
public struct RouteFileHooks: Sendable {
  /// A track for `import`: its name and recorded points (seconds since 1970 UTC).
  public struct Track: Sendable, Hashable {
    public var name: String?
    public var points: [WireTrackPoint]
    public init(name: String?, points: [WireTrackPoint]) {
      self.name = name
      self.points = points
    }
  }

  /// A route for `route load`: its name and the line to follow.
  public struct Route: Sendable, Hashable {
    public var name: String?
    public var coordinates: [WireCoordinate]
    public init(name: String?, coordinates: [WireCoordinate]) {
      self.name = name
      self.coordinates = coordinates
    }
  }

  public enum ExportFormat: String, Sendable, Hashable, CaseIterable {
    case gpx
    case geojson
  }

  /// Reads a GPX track file.
  public var readTrack: @Sendable (URL) throws -> Track
  /// Reads a route file (GPX or GeoJSON).
  public var readRoute: @Sendable (URL) throws -> Route
  /// Writes an export: every segment its own GPX `trkseg` / GeoJSON `MultiLineString` line.
  public var writeExport: @Sendable (ExportResult, ExportFormat) throws -> Data

  public init(
    readTrack: @escaping @Sendable (URL) throws -> Track,
    readRoute: @escaping @Sendable (URL) throws -> Route,
    writeExport: @escaping @Sendable (ExportResult, ExportFormat) throws -> Data
  ) {
    self.readTrack = readTrack
    self.readRoute = readRoute
    self.writeExport = writeExport
  }

  public struct NotAvailable: Error, CustomStringConvertible {
    public var description: String
  }

  /// Hooks that can do nothing and say so: for a build or a test without route files.
  public static let unavailable = RouteFileHooks(
    readTrack: { _ in
      throw NotAvailable(description: "reading GPX tracks is not available in this build of dashpilotctl")
    },
    readRoute: { _ in
      throw NotAvailable(description: "reading route files is not available in this build of dashpilotctl")
    },
    writeExport: { _, format in
      throw NotAvailable(description: "writing \(format.rawValue) is not available in this build of dashpilotctl")
    })
}
