import DashPilotCore
import FoundationEssentials

/// A coarse index of the route's segments by 250 m square cell, built once with the route, so
/// that joining (when there is no last progress to search around) looks at the few segments
/// near the fix instead of every segment of a 100,000-point route on every fix.
///
/// Cells are laid on one equirectangular plane for the whole route (scaled at its middle
/// latitude, longitudes unwrapped along the route so the antimeridian is no seam). Each segment
/// is entered in the cell of every point sampled along it every half cell; a query pads its
/// radius by a whole cell, so a segment within the radius is never missed. Building is linear
/// in the route's length; a route whose length would need an absurd number of samples (points
/// hopping round the globe) gets no grid, and joining falls back to a full scan.
struct SegmentGrid: Sendable {
  struct Cell: Hashable, Sendable {
    var x: Int
    var y: Int
  }

  static let cellSize: Double = 250

  private let metresPerRadianEast: Double
  private let referenceCosine: Double
  private let cells: [Cell: [Int32]]
  /// Whether the unwrapped longitudes leave -180...180, so a fix must be tried a lap either side.
  private let crossesAntimeridian: Bool

  init?(points: [GeoCoordinate]) {
    guard points.count >= 2, points.count - 1 <= Int(Int32.max) else { return nil }
    var minLatitude = Double.infinity
    var maxLatitude = -Double.infinity
    var longitudes: [Double] = []
    longitudes.reserveCapacity(points.count)
    var previousRaw = points[0].longitude
    for point in points {
      minLatitude = min(minLatitude, point.latitude)
      maxLatitude = max(maxLatitude, point.latitude)
      var step = point.longitude - previousRaw
      if step > 180 { step -= 360 } else if step < -180 { step += 360 }
      longitudes.append((longitudes.last ?? point.longitude) + (longitudes.isEmpty ? 0 : step))
      previousRaw = point.longitude
    }
    referenceCosine = max(0.01, cos((minLatitude + maxLatitude) / 2 * .pi / 180))
    metresPerRadianEast = GeographicDistance.earthRadius * referenceCosine
    crossesAntimeridian = longitudes.contains { $0 < -180 || $0 > 180 }

    let half = Self.cellSize / 2
    let sampleBudget = max(1_000_000, 20 * points.count)
    var samples = 0
    var cells: [Cell: [Int32]] = [:]
    var previous = Self.plane(points[0].latitude, longitudes[0], metresPerRadianEast)
    for index in 1..<points.count {
      let next = Self.plane(points[index].latitude, longitudes[index], metresPerRadianEast)
      let length =
        ((next.x - previous.x) * (next.x - previous.x)
        + (next.y - previous.y) * (next.y - previous.y)).squareRoot()
      let steps = max(1, Int((length / half).rounded(.up)))
      samples += steps + 1
      guard samples <= sampleBudget else { return nil }
      let segment = Int32(index - 1)
      var lastCell: Cell?
      for step in 0...steps {
        let f = Double(step) / Double(steps)
        let cell = Self.cell(
          previous.x + f * (next.x - previous.x), previous.y + f * (next.y - previous.y))
        // A straight segment never re-enters a cell it left, so one look back removes repeats.
        if cell != lastCell {
          cells[cell, default: []].append(segment)
          lastCell = cell
        }
      }
      previous = next
    }
    self.cells = cells
  }

  /// Segment indices that may lie within `radius` metres of `coordinate`, ascending. When the
  /// query box would cover more cells than the grid holds (a compact route, or a fix near a
  /// pole where a degree of longitude is short), the grid's own cells are filtered instead.
  func segments(near coordinate: GeoCoordinate, radius: Double) -> [Int] {
    let pad = radius + Self.cellSize
    let cosine = cos(coordinate.latitude * .pi / 180)
    let eastPad = pad * referenceCosine / max(cosine, 1e-9)
    let north = coordinate.latitude * .pi / 180 * GeographicDistance.earthRadius
    let laps: [Double] = crossesAntimeridian ? [-360, 0, 360] : [0]
    let boxes = laps.map { lap in
      let east = (coordinate.longitude + lap) * .pi / 180 * metresPerRadianEast
      return (
        west: ((east - eastPad) / Self.cellSize).rounded(.down),
        east: ((east + eastPad) / Self.cellSize).rounded(.down),
        south: ((north - pad) / Self.cellSize).rounded(.down),
        north: ((north + pad) / Self.cellSize).rounded(.down)
      )
    }
    let boxCells = boxes.reduce(0.0) { $0 + ($1.east - $1.west + 1) * ($1.north - $1.south + 1) }
    var found: [Int] = []
    if boxCells <= Double(cells.count) {
      for box in boxes {
        for y in Int(box.south)...Int(box.north) {
          for x in Int(box.west)...Int(box.east) {
            if let list = cells[Cell(x: x, y: y)] {
              for segment in list { found.append(Int(segment)) }
            }
          }
        }
      }
    } else {
      for (cell, list) in cells {
        let x = Double(cell.x)
        let y = Double(cell.y)
        guard boxes.contains(where: { x >= $0.west && x <= $0.east && y >= $0.south && y <= $0.north })
        else { continue }
        for segment in list { found.append(Int(segment)) }
      }
    }
    found.sort()
    var unique: [Int] = []
    unique.reserveCapacity(found.count)
    for segment in found where segment != unique.last { unique.append(segment) }
    return unique
  }

  private static func plane(_ latitude: Double, _ longitude: Double, _ metresPerRadianEast: Double)
    -> (x: Double, y: Double)
  {
    (longitude * .pi / 180 * metresPerRadianEast, latitude * .pi / 180 * GeographicDistance.earthRadius)
  }

  private static func cell(_ x: Double, _ y: Double) -> Cell {
    Cell(x: Int((x / cellSize).rounded(.down)), y: Int((y / cellSize).rounded(.down)))
  }
}
