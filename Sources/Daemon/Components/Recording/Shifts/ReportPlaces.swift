import ControlProtocol
import DashPilotCore
import FoundationEssentials

/// The places a report draws: those that lie within or touch the box around what it
/// draws (the recorded positions and the route), that box at least
/// `minimumExtent` a side, as the drawing shows a shift that barely moved. A `private`
/// place is never among them: a driver's home is no dispatcher's business, and no
/// position inside it was recorded to draw.
enum ReportPlaces {
  /// The drawing's least extent, in metres (`ReportProjection.minimumExtent`).
  static let minimumExtent = 200.0

  static func touching(_ coordinates: [GeoCoordinate], of places: [Place]) -> [WirePlace] {
    guard let first = coordinates.first, !places.isEmpty else { return [] }
    let frame = LocalFlatFrame(reference: first)
    guard var drawn = Box(coordinates.map(frame.project)) else { return [] }
    drawn = drawn.grown(toAtLeast: minimumExtent)
    return places.filter { place in
      guard !place.isPrivate, let box = box(of: place.area, in: frame) else { return false }
      return box.touches(drawn)
    }.map(WirePlace.init)
  }

  /// The box around `area` in `frame`: a circle's centre and radius, or every ring's
  /// positions.
  static func box(of area: PlaceArea, in frame: LocalFlatFrame) -> Box? {
    switch area {
    case .circle(let centre, let radius):
      let c = frame.project(centre)
      return Box(low: FlatPoint(x: c.x - radius, y: c.y - radius), high: FlatPoint(x: c.x + radius, y: c.y + radius))
    case .polygons(let polygons):
      return Box(polygons.flatMap { $0.flatMap { $0 } }.map(frame.project))
    }
  }

  struct Box {
    var low: FlatPoint
    var high: FlatPoint

    init(low: FlatPoint, high: FlatPoint) {
      self.low = low
      self.high = high
    }

    init?(_ points: [FlatPoint]) {
      guard let first = points.first else { return nil }
      low = first
      high = first
      for point in points {
        low = FlatPoint(x: min(low.x, point.x), y: min(low.y, point.y))
        high = FlatPoint(x: max(high.x, point.x), y: max(high.y, point.y))
      }
    }

    /// Kept centred, each side at least `extent`.
    func grown(toAtLeast extent: Double) -> Box {
      let padX = max(0, extent - (high.x - low.x)) / 2
      let padY = max(0, extent - (high.y - low.y)) / 2
      return Box(low: FlatPoint(x: low.x - padX, y: low.y - padY), high: FlatPoint(x: high.x + padX, y: high.y + padY))
    }

    func touches(_ other: Box) -> Bool {
      low.x <= other.high.x && other.low.x <= high.x && low.y <= other.high.y && other.low.y <= high.y
    }
  }
}
