import DashPilotCore
import Foundation
import TestSupport
import Testing

/// Simplifying a line for drawing keeps its ends and never strays from it by more than
/// the tolerance; the flat frame is true at its latitude.
@Suite struct PolylineSimplifierTests {
  /// The distance from `point` to the polyline through `line`.
  static func distance(_ point: FlatPoint, to line: [FlatPoint]) -> Double {
    guard line.count > 1 else { return hypot(point.x - line[0].x, point.y - line[0].y) }
    var best = Double.infinity
    for (a, b) in zip(line, line.dropFirst()) {
      let dx = b.x - a.x
      let dy = b.y - a.y
      let length = dx * dx + dy * dy
      let t = length > 0 ? min(1, max(0, ((point.x - a.x) * dx + (point.y - a.y) * dy) / length)) : 0
      best = min(best, hypot(a.x + t * dx - point.x, a.y + t * dy - point.y))
    }
    return best
  }

  @Test("a straight drive with wander inside the tolerance is its two ends")
  func straightLine() {
    let points = (0...1000).map { FlatPoint(x: Double($0), y: $0 % 2 == 0 ? 0.4 : -0.4) }
    #expect(PolylineSimplifier.keptIndices(points, tolerance: 2) == [0, 1000])
  }

  @Test("a corner is kept")
  func corner() {
    let points = (0...100).map { FlatPoint(x: Double(min($0, 50)), y: Double(max(0, $0 - 50))) }
    #expect(PolylineSimplifier.keptIndices(points, tolerance: 1) == [0, 50, 100])
  }

  @Test("two points or fewer are kept as they are")
  func short() {
    #expect(PolylineSimplifier.keptIndices([FlatPoint](), tolerance: 5) == [])
    #expect(PolylineSimplifier.keptIndices([FlatPoint(x: 0, y: 0)], tolerance: 5) == [0])
    #expect(PolylineSimplifier.keptIndices([FlatPoint(x: 0, y: 0), FlatPoint(x: 0, y: 0)], tolerance: 5) == [0, 1])
  }

  @Test("no point left out lies further than the tolerance from the line kept", arguments: 1...20)
  func withinTolerance(seed: Int) {
    var generator = SeededGenerator(seed: UInt64(seed))
    var position = FlatPoint(x: 0, y: 0)
    var heading = 0.0
    var points: [FlatPoint] = []
    for _ in 0..<3000 {
      heading += Double.random(in: -0.3...0.3, using: &generator)
      let step = Double.random(in: 0...6, using: &generator)
      position = FlatPoint(x: position.x + step * cos(heading), y: position.y + step * sin(heading))
      points.append(position)
    }
    let tolerance = Double.random(in: 0.5...20, using: &generator)
    let kept = PolylineSimplifier.keptIndices(points, tolerance: tolerance)
    #expect(kept.first == 0 && kept.last == points.count - 1)
    #expect(kept == kept.sorted() && Set(kept).count == kept.count)
    #expect(kept.count < points.count)
    let line = kept.map { points[$0] }
    let worst = points.map { Self.distance($0, to: line) }.max() ?? 0
    #expect(worst <= tolerance + 1e-9, "\(worst) > \(tolerance)")
  }

  @Test("a kilometre east and a kilometre north are a kilometre each in the frame", arguments: [0.0, 51.5, 64.1])
  func frameIsTrueAtItsLatitude(latitude: Double) {
    let origin = GeoCoordinate(latitude: latitude, longitude: 10)
    let frame = LocalFlatFrame(reference: origin)
    let east = frame.project(GeographicDistance.destination(from: origin, bearing: 90, distance: 1000))
    let north = frame.project(GeographicDistance.destination(from: origin, bearing: 0, distance: 1000))
    #expect(abs(east.x - 1000) < 0.5 && abs(east.y) < 0.5, "\(east)")
    #expect(abs(north.y - 1000) < 0.5 && abs(north.x) < 1e-6, "\(north)")
  }
}
