import ControlProtocol
import DashPilotCore
import FoundationEssentials
import RouteFiles

extension RouteFileHooks {
  /// gpsd's own conversion from HDOP to a 95 % horizontal error when the receiver gives no
  /// error estimate (DESIGN.md field notes: `eph` is HDOP x 19 m).
  public static let metresPerHDOP = 19.0

  /// The hooks `dashpilotctl` runs with: RouteFiles reads and writes GPX and GeoJSON here,
  /// on the client (the daemon reads with it only a route a fleet command sends inline).
  ///
  /// - `import FILE`: every point of every segment (a GPX `trkseg`, a GeoJSON line), in
  ///   file order, with its time, its fix type and speed where the file gives them, and
  ///   accuracy `hdop` x 19 m (none without an `hdop`: the daemon then judges the point
  ///   with its assumed accuracy).
  /// - `route load FILE`: the first route of the file (see `RouteFile.readRoute`), named by
  ///   the file's name.
  /// - `export ID --format gpx|geojson`: one GPX `trkseg` (GeoJSON line) per segment the
  ///   daemon answers with; an accuracy goes out as `hdop` = accuracy / 19, the inverse of
  ///   the import, so an exported shift imports again with the same accuracies.
  ///
  /// A file that cannot be read or is not a track or route throws an error naming the
  /// problem; the command puts the file's name in front of it and exits 1, as for any
  /// request that could not be done (2 is kept for a command line that is wrong).
  public static let routeFiles = RouteFileHooks(
    readTrack: { url in
      let path = url.relativePath
      let track: TimedTrack
      do {
        track = try RouteFile.readTrack(atPath: path)
      } catch {
        throw FileProblem(description: problem(of: error))
      }
      var points: [WireTrackPoint] = []
      points.reserveCapacity(track.pointCount)
      for point in track.segments.joined() {
        var accuracy: Double?
        if let hdop = point.hdop {
          guard hdop.isFinite, hdop >= 0 else {
            throw FileProblem(
              description: "point \(points.count) has hdop \(hdop), "
                + "which is not a dilution of precision (a number of at least 0)")
          }
          accuracy = hdop * metresPerHDOP
        }
        points.append(
          WireTrackPoint(
            lat: point.coordinate.latitude, lon: point.coordinate.longitude,
            time: point.time.timeIntervalSince1970, accuracy: accuracy, fix: point.fix,
            speed: point.speed.flatMap { $0.isFinite && $0 >= 0 ? $0 : nil }))
      }
      return Track(name: track.name ?? url.lastPathComponent, points: points)
    },
    readRoute: { url in
      let coordinates: [GeoCoordinate]
      do {
        coordinates = try RouteFile.readRoute(atPath: url.relativePath)
      } catch {
        throw FileProblem(description: problem(of: error))
      }
      return Route(
        name: url.lastPathComponent,
        coordinates: coordinates.map { WireCoordinate(lat: $0.latitude, lon: $0.longitude) })
    },
    writeExport: { result, format in
      let segments = result.segments.filter { !$0.isEmpty }.map { segment in
        segment.map { point in
          TrackPoint(
            coordinate: GeoCoordinate(latitude: point.lat, longitude: point.lon),
            time: Date(timeIntervalSince1970: point.time),
            hdop: point.accuracy.map(hdop(forAccuracy:)))
        }
      }
      // Each stop a waypoint at its arrival: "Stop 2", "4 min · still stopped when the shift ended".
      let waypoints = result.stops.enumerated().map { index, stop in
        Waypoint(
          coordinate: GeoCoordinate(latitude: stop.latitude, longitude: stop.longitude), time: stop.arrival,
          name: "Stop \(index + 1)", description: StopWording.duration(stop.durationSeconds, cut: stop.cut))
      }
      let track = TimedTrack(name: "DashPilot shift #\(result.shift.id)", segments: segments, waypoints: waypoints)
      let fileFormat: RouteFileFormat =
        switch format {
        case .gpx: .gpx
        case .geojson: .geojson
        }
      return Data(RouteFile.text(of: track, as: fileFormat).utf8)
    })

  /// The HDOP an exported accuracy is written as: accuracy / 19 m, to the 1e-4 that a
  /// centimetre of accuracy (the store's resolution) makes of it, so it goes out with the
  /// precision it has (7.6 m is 0.4, not 0.39999999999999997) and imports back to the same
  /// centimetre.
  static func hdop(forAccuracy accuracy: Double) -> Double {
    (accuracy / metresPerHDOP * 10_000).rounded() / 10_000
  }

  /// A file's problem in words that follow the file's name (the commands print
  /// "cannot import FILE: PROBLEM"): a `RouteFileError` without its own copy of the name.
  static func problem(of error: Error) -> String {
    guard let fileError = error as? RouteFileError else { return "\(error)" }
    let text = fileError.description
    let prefix = "\(fileError.file): "
    return text.hasPrefix(prefix) ? String(text.dropFirst(prefix.count)) : text
  }

  /// What was wrong with a route or track file.
  public struct FileProblem: Error, CustomStringConvertible, Sendable, Hashable {
    public var description: String
  }
}
