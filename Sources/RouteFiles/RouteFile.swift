// RouteFiles reads GPX with libxml2 (XMLEventReader) and GeoJSON with FoundationEssentials'
// JSON decoder. It is linked only by dashpilotctl, dashpilot-route-reader and the tests,
// never by the daemon: the daemon receives routes and tracks already read, and runs
// dashpilot-route-reader as a child for a route a fleet command carries inline
// (`route.load` with `args.gpx`), so it never loads an XML parser and still refuses a text
// with the CLI's words (see Package.swift).
import DashPilotCore
import FoundationEssentials
import PlatformSupport

#if canImport(Glibc)
  import Glibc
#endif

/// The two file formats, chosen by extension and, failing that, by the first character.
public enum RouteFileFormat: String, Sendable, CaseIterable {
  case gpx
  case geojson

  public init?(pathExtension: String) {
    switch pathExtension.lowercased() {
    case "gpx": self = .gpx
    case "geojson", "json": self = .geojson
    default: return nil
    }
  }

  static func sniff(_ data: Data) -> RouteFileFormat? {
    for byte in data.prefix(4096) {
      switch byte {
      case 0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF: continue  // whitespace, UTF-8 BOM
      case UInt8(ascii: "<"): return .gpx
      case UInt8(ascii: "{"): return .geojson
      default: return nil
      }
    }
    return nil
  }
}

/// Reading and writing route and track files, the entry points `dashpilotctl` uses.
public enum RouteFile {
  /// A route to follow from a GPX or GeoJSON file.
  public static func readRoute(atPath path: String) throws(RouteFileError) -> [GeoCoordinate] {
    let (data, format) = try load(path)
    return try readRoute(data, format: format, source: path)
  }

  /// A route to follow from the text of a route file that came without a file (a fleet
  /// command's `args.gpx`): read exactly as a file of that format is, its errors naming
  /// `source` where they would name the file.
  public static func readRoute(_ data: Data, format: RouteFileFormat, source: String) throws(RouteFileError)
    -> [GeoCoordinate]
  {
    switch format {
    case .gpx: return try GPXReader.route(from: data, file: source)
    case .geojson: return try GeoJSONReader.route(from: data, file: source)
    }
  }

  /// A recorded track (every point timed) from a GPX or GeoJSON file, for import into a shift.
  public static func readTrack(atPath path: String) throws(RouteFileError) -> TimedTrack {
    let (data, format) = try load(path)
    switch format {
    case .gpx: return try GPXReader.track(from: data, file: path)
    case .geojson: return try GeoJSONReader.track(from: data, file: path)
    }
  }

  /// The text of a track in the given format.
  public static func text(of track: TimedTrack, as format: RouteFileFormat) -> String {
    switch format {
    case .gpx: GPXWriter.document(for: track)
    case .geojson: GeoJSONWriter.document(for: track)
    }
  }

  private static func load(_ path: String) throws(RouteFileError) -> (Data, RouteFileFormat) {
    let data: Data
    do {
      data = try Data(contentsOf: URL(fileURLWithPath: path))
    } catch {
      throw RouteFileError(file: path, problem: .unreadable(reasonForUnreadable(path, error)))
    }
    let byExtension = RouteFileFormat(pathExtension: URL(fileURLWithPath: path).pathExtension)
    guard let format = byExtension ?? RouteFileFormat.sniff(data) else {
      throw RouteFileError(file: path, problem: .unknownFormat)
    }
    return (data, format)
  }

  /// The system's own words (errno), which name the problem better than Foundation's.
  private static func reasonForUnreadable(_ path: String, _ error: Error) -> String {
    var status = stat()
    if stat(path, &status) != 0 { return String(cString: strerror(errno)) }
    if status.st_mode & S_IFMT == S_IFDIR { return "it is a directory" }
    let descriptor = open(path, O_RDONLY)
    if descriptor < 0 { return String(cString: strerror(errno)) }
    close(descriptor)
    return SystemErrorText.reason(error)
  }
}
