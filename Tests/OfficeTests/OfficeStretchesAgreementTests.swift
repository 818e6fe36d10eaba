import DashPilotCore
import Foundation
import Office
import TestSupport
import Testing

/// The `stretches` view applies the measurement's continuity rule in SQL; here it is held
/// to the core's calculator on the same rows: routes with new capture sessions, silences
/// longer than the interval, held samples and lone fixes give the same stretches (each with
/// the same positions, first and last times) and lengths within the flattening of the Earth.
@Suite(.requiresPostGIS)
struct OfficeStretchesAgreementTests {
  /// A day of driving in pieces: what capture does to a route.
  static func route(seed: UInt64) -> [RouteSample] {
    var generator = SeededGenerator(seed: seed)
    var samples: [RouteSample] = []
    var time = BoxPayloads.t0
    var position = GeoCoordinate(latitude: 51.4 + Double.random(in: 0..<0.2, using: &generator), longitude: -0.1)
    var session = 1
    var bearing = Double.random(in: 0..<360, using: &generator)
    for _ in 0..<400 {
      switch Int.random(in: 0..<100, using: &generator) {
      case 0..<3: session += 1  // capture interrupted: a new session
      case 3..<6: time += Double.random(in: 121..<600, using: &generator).rounded()  // silence past the interval
      default: break
      }
      bearing += Double.random(in: -20..<20, using: &generator)
      let held = Int.random(in: 0..<10, using: &generator) == 0
      let step = held ? Double.random(in: 0..<3, using: &generator) : Double.random(in: 5..<25, using: &generator)
      position = GeographicDistance.destination(from: position, bearing: bearing, distance: step)
      time += Double.random(in: 1..<5, using: &generator).rounded()
      samples.append(
        RouteSample(
          timestamp: time, coordinate: position, horizontalAccuracy: 5,
          captureSessionID: CaptureSessionID("cs-\(session)"),
          isHeld: held))
    }
    return samples
  }

  @Test(arguments: [1, 2, 3] as [UInt64])
  func theViewDrawsTheStretchesTheCalculatorMeasures(seed: UInt64) throws {
    let database = try OfficeDatabase("stretches_\(seed)")
    let route = Self.route(seed: seed)
    let van = BoxPayloads("van-7")
    // Sent in batches of 10, a session's samples together as the box sends them.
    var batches: [[RouteSample]] = [[]]
    for sample in route {
      if batches[batches.count - 1].count == 10
        || batches[batches.count - 1].last.map({ $0.captureSessionID != sample.captureSessionID }) == true
      {
        batches.append([])
      }
      batches[batches.count - 1].append(sample)
    }
    let messages = batches.enumerated().map { van.samples($0.element, shift: 7, sequence: Int64($0.offset + 1)) }
    _ = try database.writer().write(messages.map { BoxPayloads.inbound($0) })

    let measured = Shift(id: 7, startedAt: route[0].timestamp).measuredRoute(of: route)
    let expected = measured.stretches.filter(\.contributes)
    let view = try database.psql(
      """
      SELECT stretch, positions, extract(epoch FROM started_at), extract(epoch FROM ended_at), metres
      FROM stretches WHERE vehicle = 'van-7' AND shift = 7 ORDER BY stretch
      """
    ).split(separator: "\n").map { $0.split(separator: "|").map(String.init) }
    #expect(view.count == expected.count)
    #expect(view.count == measured.distance.segments)
    var total = 0.0
    for (row, stretch) in zip(view, expected) {
      #expect(Int(row[1]) == stretch.samples.count)
      #expect(Double(row[2]) == stretch.from?.timeIntervalSince1970)
      #expect(Double(row[3]) == stretch.to?.timeIntervalSince1970)
      total += Double(row[4]) ?? 0
    }
    // The view's lengths are geodesic (the WGS 84 spheroid), the core's on a sphere.
    #expect(
      abs(total / measured.distance.metres - 1) < 0.005,
      "\(total) m in the view, \(measured.distance.metres) m measured")
    // A line is never drawn across a gap: every stretch's line has its own positions only.
    #expect(
      try database.psql("SELECT bool_and(ST_NPoints(line) = positions) FROM stretches WHERE vehicle = 'van-7'") == "t")
  }
}
