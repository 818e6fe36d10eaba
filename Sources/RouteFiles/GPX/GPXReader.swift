import DashPilotCore
import FoundationEssentials
import PlatformSupport

/// Reads routes and timed tracks out of GPX.
public enum GPXReader {
  /// The route to follow: the first `rte` holding points, else the points of the first `trk`
  /// holding any, its segments joined in order.
  public static func route(from data: Data, file: String) throws(RouteFileError) -> [GeoCoordinate] {
    let document = try GPXDocument.parse(data, file: file)
    let points: [GPXDocument.Point]
    if let route = document.routes.first(where: { !$0.isEmpty }) {
      points = route
    } else if let track = document.tracks.first(where: { $0.contains { !$0.isEmpty } }) {
      points = track.flatMap { $0 }
    } else {
      throw RouteFileError(file: file, problem: .noRouteOrTrack)
    }
    var coordinates: [GeoCoordinate] = []
    coordinates.reserveCapacity(points.count)
    for (index, point) in points.enumerated() {
      coordinates.append(try coordinate(of: point, index: index, file: file))
    }
    guard coordinates.count >= 2 else { throw RouteFileError(file: file, problem: .tooFewPoints(coordinates.count)) }
    return coordinates
  }

  /// A recorded track for import: every `trkseg` of every `trk` becomes a segment, and every
  /// point must carry a time. Point indexes in errors count from 0 across the whole file.
  /// Waypoints come along as they are (an export's stops); import does not use them, so one
  /// without a readable position or time is left out rather than refusing the track.
  public static func track(from data: Data, file: String) throws(RouteFileError) -> TimedTrack {
    let document = try GPXDocument.parse(data, file: file)
    guard document.tracks.contains(where: { $0.contains { !$0.isEmpty } }) else {
      throw RouteFileError(file: file, problem: .noRouteOrTrack)
    }
    var segments: [[TrackPoint]] = []
    var index = 0
    for track in document.tracks {
      for rawSegment in track where !rawSegment.isEmpty {
        var segment: [TrackPoint] = []
        for point in rawSegment {
          let coordinate = try coordinate(of: point, index: index, file: file)
          guard let timeText = point.time, !timeText.isEmpty else {
            throw RouteFileError(file: file, problem: .missingTime(index: index))
          }
          guard let time = UTCTimestamp.parse(timeText, .logger) else {
            throw RouteFileError(file: file, problem: .badTime(index: index, text: timeText))
          }
          segment.append(
            TrackPoint(
              coordinate: coordinate, time: time, elevation: point.elevation.flatMap { Double($0) },
              hdop: point.hdop.flatMap { Double($0) }, fix: point.fix.flatMap { $0.isEmpty ? nil : $0 },
              speed: point.speed.flatMap { Double($0) }))
          index += 1
        }
        segments.append(segment)
      }
    }
    guard index >= 2 else { throw RouteFileError(file: file, problem: .tooFewPoints(index)) }
    let waypoints = document.waypoints.compactMap { point -> Waypoint? in
      guard let latitude = point.latitude.flatMap({ Double($0.trimmingWhiteSpaceAndNewlines) }),
        let longitude = point.longitude.flatMap({ Double($0.trimmingWhiteSpaceAndNewlines) })
      else { return nil }
      let coordinate = GeoCoordinate(latitude: latitude, longitude: longitude)
      guard coordinate.isValid else { return nil }
      return Waypoint(
        coordinate: coordinate, time: point.time.flatMap { UTCTimestamp.parse($0, .logger) }, name: point.name,
        description: point.description)
    }
    return TimedTrack(segments: segments, waypoints: waypoints)
  }

  private static func coordinate(
    of point: GPXDocument.Point, index: Int, file: String
  ) throws(RouteFileError) -> GeoCoordinate {
    guard let latText = point.latitude, let lonText = point.longitude,
      let latitude = Double(latText.trimmingWhiteSpaceAndNewlines),
      let longitude = Double(lonText.trimmingWhiteSpaceAndNewlines)
    else { throw RouteFileError(file: file, problem: .unreadableCoordinate(index: index)) }
    let coordinate = GeoCoordinate(latitude: latitude, longitude: longitude)
    guard coordinate.isValid else {
      throw RouteFileError(
        file: file, problem: .coordinateOutOfRange(index: index, latitude: latitude, longitude: longitude))
    }
    return coordinate
  }
}
