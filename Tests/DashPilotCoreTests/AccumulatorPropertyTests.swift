import DashPilotCore
import Foundation
import TestSupport
import Testing

/// The accumulator fed in pieces is the calculator fed at once: one walk, two uses.
@Suite struct AccumulatorPropertyTests {
  static func randomRoute(_ generator: inout SeededGenerator) -> [RouteSample] {
    var route = RouteBuilder(session: Bool.random(using: &generator) ? CaptureSessionID("a") : nil)
    let count = Int.random(in: 0..<200, using: &generator)
    for _ in 0..<count {
      let roll = Int.random(in: 0..<100, using: &generator)
      if roll < 3 { route.session = CaptureSessionID("s\(Int.random(in: 0..<4, using: &generator))") }
      if roll == 3 { route.session = nil }
      let seconds =
        roll < 8 ? Double.random(in: 100...400, using: &generator) : Double.random(in: 0.5...10, using: &generator)
      route.drive(
        Double.random(in: 0...300, using: &generator), bearing: Double.random(in: 0..<360, using: &generator),
        seconds: seconds)
    }
    return route.samples
  }

  @Test(arguments: 1...40)
  func piecewiseEqualsAtOnce(seed: Int) {
    var generator = SeededGenerator(seed: UInt64(seed))
    let samples = Self.randomRoute(&generator)
    let whole = RouteMileageCalculator().distance(of: samples)
    var accumulator = RouteMileageAccumulator()
    var index = 0
    while index < samples.count {
      let size = Int.random(in: 1...25, using: &generator)
      let end = min(samples.count, index + size)
      accumulator.extend(with: samples[index..<end])
      index = end
      // Every extension so far equals the one-pass figure of the same prefix.
      let prefix = RouteMileageCalculator().distance(of: samples[0..<end])
      #expect(accumulator.distance() == prefix)
    }
    #expect(accumulator.distance() == whole)
  }

  @Test func extensionRunsForwardsOnly() {
    var route = RouteBuilder()
    route.drive(100)
    route.drive(100)
    var accumulator = RouteMileageAccumulator()
    accumulator.extend(with: route.samples)
    let before = accumulator.distance()
    accumulator.extend(with: route.samples[1])  // at or before the last consumed: not counted
    accumulator.extend(with: route.samples[0])
    #expect(accumulator.distance() == before)
    #expect(abs(before.metres - 200) < 1e-6)
  }
}
