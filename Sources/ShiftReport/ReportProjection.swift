import DashPilotCore
import FoundationEssentials

/// A rectangle of the drawing, in its own units (SVG user units: CSS pixels).
public struct ReportRect: Sendable, Hashable {
  public var x: Double
  public var y: Double
  public var width: Double
  public var height: Double

  public init(x: Double, y: Double, width: Double, height: Double) {
    self.x = x
    self.y = y
    self.width = width
    self.height = height
  }
}

/// Positions on the drawing: a flat frame true at the latitude of the middle of what is
/// drawn (`LocalFlatFrame`), one scale east and north so shapes are as driven, north up,
/// fitted into a rectangle with a margin and centred in it.
public struct ReportProjection: Sendable, Hashable {
  public let frame: LocalFlatFrame
  /// Drawing units per metre, the same across and up.
  public let scale: Double
  let originX: Double
  let originY: Double

  /// The least extent drawn, in metres: a shift that never moved is shown at a scale a
  /// street fits in, not magnified without end.
  public static let minimumExtent = 200.0

  /// What is drawn, in a frame true at the latitude of its middle: the frame and the
  /// corners of the box around it, each side at least `minimumExtent`. Nil for nothing.
  public static func bounds(of coordinates: [GeoCoordinate]) -> (
    frame: LocalFlatFrame, low: FlatPoint, high: FlatPoint
  )? {
    guard var south = coordinates.first?.latitude, let reference = coordinates.first else { return nil }
    var north = south
    for coordinate in coordinates {
      south = min(south, coordinate.latitude)
      north = max(north, coordinate.latitude)
    }
    let frame = LocalFlatFrame(reference: GeoCoordinate(latitude: (south + north) / 2, longitude: reference.longitude))
    var low = frame.project(reference)
    var high = low
    for coordinate in coordinates {
      let point = frame.project(coordinate)
      low = FlatPoint(x: min(low.x, point.x), y: min(low.y, point.y))
      high = FlatPoint(x: max(high.x, point.x), y: max(high.y, point.y))
    }
    // A shift that barely moved keeps its middle and is shown at least this wide and tall.
    let padX = max(0, minimumExtent - (high.x - low.x)) / 2
    let padY = max(0, minimumExtent - (high.y - low.y)) / 2
    return (frame, FlatPoint(x: low.x - padX, y: low.y - padY), FlatPoint(x: high.x + padX, y: high.y + padY))
  }

  /// Fits every coordinate of `coordinates` into `rect`, keeping `margin` units clear at
  /// each side. Nil when there is nothing to fit.
  public init?(fitting coordinates: [GeoCoordinate], in rect: ReportRect, margin: Double) {
    guard let (frame, low, high) = Self.bounds(of: coordinates) else { return nil }
    let scale = min((rect.width - 2 * margin) / (high.x - low.x), (rect.height - 2 * margin) / (high.y - low.y))
    self.frame = frame
    self.scale = scale
    // The middle of what is drawn at the middle of the rectangle.
    originX = rect.x + rect.width / 2 - (low.x + high.x) / 2 * scale
    originY = rect.y + rect.height / 2 + (low.y + high.y) / 2 * scale
  }

  /// Where `coordinate` falls on the drawing: x right, y down.
  public func point(_ coordinate: GeoCoordinate) -> FlatPoint {
    let flat = frame.project(coordinate)
    return FlatPoint(x: originX + flat.x * scale, y: originY - flat.y * scale)
  }

  public var metresPerUnit: Double { 1 / scale }

  /// The height a drawing of this `aspect` (north–south over east–west extent) takes at
  /// `width`, kept between `minimum` and `maximum`.
  public static func height(forWidth width: Double, aspect: Double, minimum: Double, maximum: Double) -> Double {
    min(maximum, max(minimum, (width * aspect).rounded()))
  }
}
