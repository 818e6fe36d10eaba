import DashPilotCore
import FoundationEssentials

/// The line a guidance engine follows: points with the distance along the route to each,
/// and an index for joining. Built once per route; matching a fix costs the same on a
/// 100-point route as on a 100,000-point one.
///
/// Each segment is taken as straight in a flat frame around the fix (`LocalFrame`): exact to
/// centimetres for the tens to hundreds of metres between a router's points; a single segment
/// many kilometres long bends off its great circle by metres, which the gates' 45 m absorb.
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
  /// cannot be told apart by the fix; of those, one whose direction agrees with `course`
  /// (within 90 degrees, when a trusted course is given) wins, then the one nearest `reference`
  /// along the route (to the centimetre; ahead of it on a tie), so a route that doubles back on
  /// the same road is followed the way the car is going rather than flipped to the other leg.
  ///
  /// The window's first segment is found by binary search on the cumulative distances, so
  /// the cost depends on how many segments the window holds, never on the route's length.
  public func match(
    _ coordinate: GeoCoordinate, window: ClosedRange<Double>, reference: Double,
    tieTolerance: Double = 0, course: Double? = nil
  ) -> RouteMatch? {
    guard coordinate.isValid else { return nil }
    let lower = min(max(window.lowerBound, 0), length)
    let upper = max(min(window.upperBound, length), lower)
    let first = firstSegment(endingAtOrAfter: lower)
    var last = first
    while last + 1 < segmentCount, cumulativeDistances[last + 1] <= upper { last += 1 }
    return best(of: first...last, for: coordinate, tieTolerance: tieTolerance, course: course) {
      along in
      // Nearest the reference; on a tie, the one ahead.
      ((abs(along - reference) * 100).rounded(), -along)
    }
  }

  /// The best match for `coordinate` anywhere on the route within `radius` metres, or `nil`
  /// when no segment is that close. Of segments within `tieTolerance` of the nearest, one
  /// going the way of `course` (when given) wins, then the earliest along the route: a loop's
  /// start is joined at its start, not its end.
  public func nearestMatch(
    to coordinate: GeoCoordinate, within radius: Double, tieTolerance: Double = 0,
    course: Double? = nil
  ) -> RouteMatch? {
    guard coordinate.isValid, radius.isFinite, radius >= 0 else { return nil }
    let candidates: [Int]
    if let grid {
      candidates = grid.segments(near: coordinate, radius: radius)
    } else {
      candidates = Array(0..<segmentCount)
    }
    guard
      let match = best(
        of: candidates, for: coordinate, tieTolerance: tieTolerance, course: course,
        rank: { ($0, 0) })
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

  /// Two passes over a handful of segments (`segments` ascending): the nearest lateral
  /// distance first; then, among the places where the distance along the route has a local
  /// minimum (a distinct pass of the route near the fix, not the neighbouring segment that
  /// merely shares a vertex with it) within the tolerance of the nearest, the one `rank`
  /// orders first.
  private func best<Segments: RandomAccessCollection<Int>>(
    of segments: Segments, for coordinate: GeoCoordinate, tieTolerance: Double, course: Double?,
    rank: (Double) -> (Double, Double)
  ) -> RouteMatch? {
    let frame = LocalFrame(coordinate)
    func nearest(_ segment: Int) -> (distance: Double, t: Double) {
      LocalFrame.nearest(a: frame.project(points[segment]), b: frame.project(points[segment + 1]))
    }
    var closest = Double.infinity
    for segment in segments { closest = min(closest, nearest(segment).distance) }
    guard closest.isFinite else { return nil }
    let limit = closest + max(0, tieTolerance) + 1e-9
    var chosen: (segment: Int, lateral: Double, along: Double, rank: (Double, Double, Double))?
    var position = segments.startIndex
    while position != segments.endIndex {
      let segment = segments[position]
      let previous = position == segments.startIndex ? nil : segments[segments.index(before: position)]
      position = segments.index(after: position)
      let next = position == segments.endIndex ? nil : segments[position]
      let found = nearest(segment)
      guard found.distance <= limit else { continue }
      // The shared vertex is the next segment's start: let that segment speak for it.
      if found.t == 1, next == segment + 1 { continue }
      // At this segment's start: a minimum only if the previous segment also ends nearest there.
      if found.t == 0, previous == segment - 1, nearest(segment - 1).t < 1 { continue }
      let start = cumulativeDistances[segment]
      let along = start + found.t * (cumulativeDistances[segment + 1] - start)
      var against = 0.0
      if let course {
        let bearing = GeographicDistance.initialBearing(
          from: points[segment], to: points[segment + 1])
        if GeographicDistance.angleBetween(course, bearing) >= 90 { against = 1 }
      }
      let ranked = rank(along)
      let order = (against, ranked.0, ranked.1)
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
