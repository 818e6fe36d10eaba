import DashPilotCore
import Foundation
import TestSupport
import Testing

/// A walker's speeds through the pure filter (issue 40, part 3): what noise does to the
/// speeds a phone reports, and a reference a few metres behind the walker. Each walk is straight east from `ReceiverClassTests.origin`
/// at 1 Hz; its positions err as a phone's do (a drift and a jitter, seeded).
struct WalkingSpeedTests {
  /// A seeded phone: its position error drifts (keeping 0.9 of itself each second, with
  /// `drift` metres of fresh error on each axis) plus `jitter` metres of white noise; its
  /// velocity has `speedNoise` m/s of noise on each axis, as a Doppler speed has.
  struct Phone {
    var random: SeededGenerator
    var drift: Double
    var jitter: Double
    var speedNoise: Double
    /// The error estimate each fix claims: gpsd's HDOP x 19 m for the HDOP of 1 a phone claims.
    var eph = 19.0
    var error = (east: 0.0, north: 0.0)

    /// A normal draw (Box-Muller) with standard deviation `sigma`.
    mutating func normal(_ sigma: Double) -> Double {
      let u = (Double(random.next() >> 11) + 0.5) / Double(1 << 53)
      let v = Double(random.next() >> 11) / Double(1 << 53)
      return sigma * (-2 * log(u)).squareRoot() * cos(2 * .pi * v)
    }

    /// The fix at `second` of a walker truly `east` metres along, walking at `pace` m/s.
    mutating func fix(_ second: Double, east: Double, pace: Double) -> FixCandidate {
      error = (0.9 * error.east + normal(drift), 0.9 * error.north + normal(drift))
      let position = (east: east + error.east + normal(jitter), north: error.north + normal(jitter))
      let velocity = (east: pace + normal(speedNoise), north: normal(speedNoise))
      let speed = (velocity.east * velocity.east + velocity.north * velocity.north).squareRoot()
      let course = 90 - atan2(velocity.north, velocity.east) * 180 / .pi
      return ReceiverCourseTests.fix(
        second, east: position.east, north: position.north, eph: eph, speed: speed, course: course)
    }
  }

  /// 15 minutes at 1.4 m/s (1,260 m) with a phone's 0.5 m/s of speed noise on each axis:
  /// each reported speed is the length of a noisy velocity, 6 % longer on average, and its
  /// integral carried the kept moves past the path (1,279.2 m). Counted less that bias
  /// (measured from the speeds), the figure stays under the path, and keeps over 95 % of it.
  @Test func speedsLengthenedByTheirNoiseDoNotCarryTheFigurePastThePath() {
    var phone = Phone(random: SeededGenerator(seed: 59), drift: 0.6, jitter: 1, speedNoise: 0.5)
    let fixes = (0...900).map { second in phone.fix(Double(second), east: 1.4 * Double(second), pace: 1.4) }
    let (kept, _) = ReceiverClassTests.capture(fixes)
    let metres = ReceiverCourseTests.metres(kept)
    #expect((metres * 10).rounded() / 10 == 1_235.6)
    #expect(metres <= 1_260 && metres > 0.95 * 1_260)
  }

  /// A reference 8 m behind the walker (within its 10 m error) puts every fix after it 8 m
  /// beyond the speeds, which are exact here. Held after a minute, the 92 m from the
  /// reference were dropped (168.0 m recorded); kept as a move, the figure is the 252 m
  /// walked and the 8 m from the reference, its excess owed. A car at 10 m/s is measured from
  /// the reference (1,808 m) by the rules of its pace, as before.
  @Test(arguments: [(1.4, 260.0), (10.0, 1_808.0)])
  func aMinuteBeyondTheSpeedsByTheReferencesErrorIsAWalk(_ pace: Double, _ expected: Double) {
    let fixes = (0...180).map { second -> FixCandidate in
      let east = pace * Double(second) - (second == 0 ? 8 : 0)
      return ReceiverCourseTests.fix(Double(second), east: east, eph: 10, speed: pace, course: 90)
    }
    let (kept, _) = ReceiverClassTests.capture(fixes)
    #expect((ReceiverCourseTests.metres(kept) * 10).rounded() / 10 == expected)
  }
}
