import FoundationEssentials

/// Which points of a line to keep for drawing it: none left out lies further than the
/// tolerance from the line through the points kept, and the first and last are always
/// kept. For drawing only; a figure is always measured from every position.
///
/// A radial pass first drops points within half the tolerance of the last point kept (one
/// pass, so a receiver's 10 Hz crawl costs nothing), then Douglas–Peucker at half the
/// tolerance: each point dropped is within half of a point kept, which is within half of
/// the line.
public enum PolylineSimplifier {
  public static func keptIndices(_ points: [FlatPoint], tolerance: Double) -> [Int] {
    guard points.count > 2 else { return Array(points.indices) }
    let half = max(0, tolerance.isFinite ? tolerance : 0) / 2
    let radial = radialPass(points, within: half)
    var keep = [Bool](repeating: false, count: radial.count)
    keep[0] = true
    keep[radial.count - 1] = true
    let limit = half * half
    var pending = [(radial.startIndex, radial.count - 1)]
    while let (first, last) = pending.popLast() {
      guard last > first + 1 else { continue }
      var farthest = -1.0
      var farthestIndex = first
      let a = points[radial[first]]
      let b = points[radial[last]]
      for index in (first + 1)..<last {
        let distance = squaredDistance(points[radial[index]], toSegment: a, b)
        if distance > farthest {
          farthest = distance
          farthestIndex = index
        }
      }
      guard farthest > limit else { continue }
      keep[farthestIndex] = true
      pending.append((first, farthestIndex))
      pending.append((farthestIndex, last))
    }
    return radial.indices.filter { keep[$0] }.map { radial[$0] }
  }

  /// The same for positions on Earth, the tolerance in metres, in a frame true at the
  /// first position's latitude.
  public static func keptIndices(_ coordinates: [GeoCoordinate], toleranceMetres: Double) -> [Int] {
    guard let first = coordinates.first else { return [] }
    let frame = LocalFlatFrame(reference: first)
    return keptIndices(coordinates.map(frame.project), tolerance: toleranceMetres)
  }

  /// Indices of the points further than `radius` from the last one kept, plus the last.
  static func radialPass(_ points: [FlatPoint], within radius: Double) -> [Int] {
    var kept = [0]
    let limit = radius * radius
    var anchor = points[0]
    for index in 1..<(points.count - 1) {
      let point = points[index]
      let dx = point.x - anchor.x
      let dy = point.y - anchor.y
      if dx * dx + dy * dy > limit {
        kept.append(index)
        anchor = point
      }
    }
    kept.append(points.count - 1)
    return kept
  }

  @inline(__always) static func squaredDistance(_ p: FlatPoint, toSegment a: FlatPoint, _ b: FlatPoint) -> Double {
    let dx = b.x - a.x
    let dy = b.y - a.y
    let lengthSquared = dx * dx + dy * dy
    var t = 0.0
    if lengthSquared > 0 { t = min(1, max(0, ((p.x - a.x) * dx + (p.y - a.y) * dy) / lengthSquared)) }
    let ex = a.x + t * dx - p.x
    let ey = a.y + t * dy - p.y
    return ex * ex + ey * ey
  }
}
