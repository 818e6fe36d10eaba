import DashPilotCore
import Foundation

/// The line a guidance engine follows: points with the distance along the route to each,
/// and an index for joining. Built once per route; matching a fix costs the same on a
/// 100-point route as on a 100,000-point one.
public struct GuidanceRoute: Sendable, Hashable {
  /// The route's points, with consecutive repeats dropped (every segment has a length).
  public let points: [GeoCoordinate]
  /// `cumulativeDistances[i]` is the distance along the route from its start to `points[i]`.
  public let cumulativeDistances: [Double]
  /// Total length in metres.
  public let length: Double
  private let grid: SegmentGrid?

  public init(_ coordinates: [GeoCoordinate]) throws(GuidanceRouteError) {
    var points: [GeoCoordinate] = []
    points.reserveCapacity(coordinates.count)
    for (index, coordinate) in coordinates.enumerated() {
      guard coordinate.isValid else { throw .invalidCoordinate(index: index, coordinate) }
      if coordinate != points.last { points.append(coordinate) }
    }
    guard points.count >= 2 else { throw .tooFewPoints(distinct: points.count) }
    var cumulative: [Double] = [0]
    cumulative.reserveCapacity(points.count)
    var total = 0.0
    for index in 1..<points.count {
      total += GeographicDistance.metres(from: points[index - 1], to: points[index])
      cumulative.append(total)
    }
    self.points = points
    self.cumulativeDistances = cumulative
    self.length = total
    self.grid = SegmentGrid(points: points)
  }

  /// Two routes are the same when their points are: everything else is derived from them.
  public static func == (a: GuidanceRoute, b: GuidanceRoute) -> Bool { a.points == b.points }
  public func hash(into hasher: inout Hasher) { hasher.combine(points) }

  public var segmentCount: Int { points.count - 1 }
  public var start: GeoCoordinate { points[0] }
  public var end: GeoCoordinate { points[points.count - 1] }

  /// The best match for `coordinate` among the segments that overlap `window` (metres along
  /// the route). Segments whose lateral distances are within `tieTolerance` of the nearest
  /// cannot be told apart by the fix; of those the one nearest `reference` along the route
  /// wins (ahead of it on an exact tie), so a route that doubles back on the same road is
  /// followed the way the car is going rather than flipped to the other leg.
  ///
  /// The window's first segment is found by binary search on the cumulative distances, so
  /// the cost depends on how many segments the window holds, never on the route's length.
  public func match(
    _ coordinate: GeoCoordinate, window: ClosedRange<Double>, reference: Double,
    tieTolerance: Double = 0
  ) -> RouteMatch? {
    guard coordinate.isValid else { return nil }
    let lower = min(max(window.lowerBound, 0), length)
    let upper = max(min(window.upperBound, length), lower)
    let first = firstSegment(endingAtOrAfter: lower)
    var last = first
    while last + 1 < segmentCount, cumulativeDistances[last + 1] <= upper { last += 1 }
    return best(of: first...last, for: coordinate, tieTolerance: tieTolerance) { along in
      // Nearest the reference; on a tie, the one ahead.
      (abs(along - reference), -along)
    }
  }

  /// The best match for `coordinate` anywhere on the route within `radius` metres, or `nil`
  /// when no segment is that close. Of segments within `tieTolerance` of the nearest, the
  /// earliest along the route wins: a loop's start is joined at its start, not its end.
  public func nearestMatch(
    to coordinate: GeoCoordinate, within radius: Double, tieTolerance: Double = 0
  ) -> RouteMatch? {
    guard coordinate.isValid, radius.isFinite, radius >= 0 else { return nil }
    let candidates: [Int]
    if let grid, let near = grid.segments(near: coordinate, radius: radius) {
      candidates = near
    } else {
      candidates = Array(0..<segmentCount)
    }
    guard let match = best(of: candidates, for: coordinate, tieTolerance: tieTolerance, rank: { ($0, 0) })
    else { return nil }
    return match.lateral <= radius ? match : nil
  }

  /// Smallest `i` whose segment ends at or after `distance` along the route.
  func firstSegment(endingAtOrAfter distance: Double) -> Int {
    var low = 0
    var high = segmentCount - 1
    while low < high {
      let middle = (low + high) / 2
      if cumulativeDistances[middle + 1] >= distance { high = middle } else { low = middle + 1 }
    }
    return low
  }

  /// Two passes over a handful of segments: the nearest lateral distance first, then, among
  /// the segments within the tolerance of it, the one `rank` orders first.
  private func best<Segments: Sequence<Int>>(
    of segments: Segments, for coordinate: GeoCoordinate, tieTolerance: Double,
    rank: (Double) -> (Double, Double)
  ) -> RouteMatch? {
    let frame = LocalFrame(coordinate)
    var nearest = Double.infinity
    for segment in segments {
      let found = LocalFrame.nearest(
        a: frame.project(points[segment]), b: frame.project(points[segment + 1]))
      nearest = min(nearest, found.distance)
    }
    guard nearest.isFinite else { return nil }
    let limit = nearest + max(0, tieTolerance)
    var chosen: (segment: Int, lateral: Double, along: Double, rank: (Double, Double))?
    for segment in segments {
      let found = LocalFrame.nearest(
        a: frame.project(points[segment]), b: frame.project(points[segment + 1]))
      guard found.distance <= limit else { continue }
      let start = cumulativeDistances[segment]
      let along = start + found.t * (cumulativeDistances[segment + 1] - start)
      let order = rank(along)
      if let current = chosen, !(order < current.rank) { continue }
      chosen = (segment, found.distance, along, order)
    }
    guard let chosen else { return nil }
    return RouteMatch(
      lateral: chosen.lateral, along: chosen.along, remaining: max(0, length - chosen.along),
      bearing: GeographicDistance.initialBearing(
        from: points[chosen.segment], to: points[chosen.segment + 1]),
      segment: chosen.segment)
  }
}
