import FoundationEssentials

/// Where a place is: a circle around a point, or polygons (each an outer ring and its
/// holes, rings closed, positions in degrees). Distances are metres, measured in a flat
/// frame true at the position asked about: across a place's few hundred metres the
/// difference from the sphere is far below the error of a fix.
public enum PlaceArea: Sendable, Hashable {
  case circle(centre: GeoCoordinate, radius: Double)
  /// Each polygon is its rings: the outer boundary first, then any holes.
  case polygons([[[GeoCoordinate]]])

  /// Metres from `point` to the boundary: negative inside (how deep), positive outside.
  public func signedDistance(to point: GeoCoordinate) -> Double {
    switch self {
    case .circle(let centre, let radius):
      return GeographicDistance.metres(from: centre, to: point) - radius
    case .polygons(let polygons):
      let frame = LocalFlatFrame(reference: point)
      var nearest = Double.infinity
      var inside = false
      for rings in polygons {
        var crossings = 0
        for ring in rings {
          let points = ring.map(frame.project)
          for (a, b) in zip(points, points.dropFirst()) {
            nearest = min(nearest, Self.distanceFromOrigin(toSegment: a, b))
            // A ray from the point east: an edge straddling its latitude, east of it.
            if (a.y > 0) != (b.y > 0), a.x + (0 - a.y) * (b.x - a.x) / (b.y - a.y) > 0 { crossings += 1 }
          }
        }
        if crossings % 2 == 1 { inside = true }
      }
      return inside ? -nearest : nearest
    }
  }

  public func contains(_ point: GeoCoordinate) -> Bool { signedDistance(to: point) <= 0 }

  /// The area in square metres: a circle's, or each polygon's outer ring less its holes.
  public var squareMetres: Double {
    switch self {
    case .circle(_, let radius):
      return Double.pi * radius * radius
    case .polygons(let polygons):
      return polygons.reduce(0) { total, rings in
        guard let first = rings.first?.first else { return total }
        let frame = LocalFlatFrame(reference: first)
        let areas = rings.map { ring in Self.shoelace(ring.map(frame.project)) }
        return total + max(0, (areas.first ?? 0) - areas.dropFirst().reduce(0, +))
      }
    }
  }

  /// The unsigned area of a closed ring of flat points.
  static func shoelace(_ points: [FlatPoint]) -> Double {
    var twice = 0.0
    for (a, b) in zip(points, points.dropFirst()) { twice += a.x * b.y - b.x * a.y }
    return abs(twice) / 2
  }

  /// How far the origin lies from the segment `a`-`b`.
  static func distanceFromOrigin(toSegment a: FlatPoint, _ b: FlatPoint) -> Double {
    let dx = b.x - a.x
    let dy = b.y - a.y
    let lengthSquared = dx * dx + dy * dy
    let along = lengthSquared > 0 ? max(0, min(1, -(a.x * dx + a.y * dy) / lengthSquared)) : 0
    let x = a.x + along * dx
    let y = a.y + along * dy
    return (x * x + y * y).squareRoot()
  }
}
