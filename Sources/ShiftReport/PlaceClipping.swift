import FoundationEssentials

/// A place's ring cut to the map's rectangle (Sutherland–Hodgman, one side at a time): a
/// place larger than the drawing is drawn as far as the map shows it, and no further.
enum PlaceClipping {
  typealias Point = (x: Double, y: Double)

  static func clipped(_ ring: [Point], to rect: ReportRect) -> [Point] {
    // Each side as "inside" and where an edge crosses it.
    let sides: [(inside: (Point) -> Bool, cross: (Point, Point) -> Point)] = [
      ({ $0.x >= rect.x }, { at(x: rect.x, $0, $1) }),
      ({ $0.x <= rect.x + rect.width }, { at(x: rect.x + rect.width, $0, $1) }),
      ({ $0.y >= rect.y }, { at(y: rect.y, $0, $1) }),
      ({ $0.y <= rect.y + rect.height }, { at(y: rect.y + rect.height, $0, $1) }),
    ]
    var points = ring
    for side in sides {
      guard let last = points.last else { return [] }
      var kept: [Point] = []
      var previous = last
      for point in points {
        switch (side.inside(previous), side.inside(point)) {
        case (true, true): kept.append(point)
        case (true, false): kept.append(side.cross(previous, point))
        case (false, true): kept += [side.cross(previous, point), point]
        case (false, false): break
        }
        previous = point
      }
      points = kept
    }
    return points
  }

  static func at(x: Double, _ a: Point, _ b: Point) -> Point {
    let t = (x - a.x) / (b.x - a.x)
    return (x, a.y + (b.y - a.y) * t)
  }

  static func at(y: Double, _ a: Point, _ b: Point) -> Point {
    let t = (y - a.y) / (b.y - a.y)
    return (a.x + (b.x - a.x) * t, y)
  }
}
