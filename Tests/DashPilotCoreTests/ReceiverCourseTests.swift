import DashPilotCore
import Foundation
import TestSupport
import Testing

/// What a receiver's courses and course-less speeds say about movement (issue 40), through
/// the pure filter: a solution settling after a cold start, a receiver whose speeds are
/// wrong, and speeds gpsd computed from positions.
struct ReceiverCourseTests {
  /// A 1 Hz fix `east` metres from the origin with `speed` on `course` (nil: none).
  static func fix(
    _ second: Double, east: Double, north: Double = 0, eph: Double = 5, speed: Double?, course: Double?
  ) -> FixCandidate {
    var position = GeographicDistance.destination(from: ReceiverClassTests.origin, bearing: 90, distance: east)
    position = GeographicDistance.destination(from: position, bearing: 0, distance: north)
    return FixCandidate(
      mode: .threeDimensional, time: ReceiverClassTests.start + second, coordinate: position, eph: eph, speed: speed,
      course: course, age: 0)
  }

  /// Metres between consecutive kept samples, held ones adding nothing.
  static func metres(_ kept: [RouteSample]) -> Double {
    zip(kept, kept.dropFirst()).reduce(0) { total, pair in
      pair.1.isHeld ? total : total + GeographicDistance.metres(from: pair.0.coordinate, to: pair.1.coordinate)
    }
  }

  /// Positions stepping 3 m a second east, each step agreeing with the last, while the
  /// speeds say 0.2 m/s. On courses pointing east, the receiver's speeds are wrong (as
  /// bundg_zeus_9's are) and the positions are believed; on courses that point anywhere, it
  /// is a solution settling (a u-blox's cold start) and nothing moved.
  @Test(arguments: [(true, 180.0), (false, 0.0)])
  func agreeingStepsAreMovementOnlyWhereTheCoursesPointTheirWay(_ coursesAgree: Bool, _ expected: Double) {
    let fixes = (0...60).map { second in
      Self.fix(
        Double(second), east: 3 * Double(second), speed: 0.2,
        course: coursesAgree ? 90 : Double((second * 137) % 360))
    }
    let (kept, _) = ReceiverClassTests.capture(fixes)
    #expect((Self.metres(kept) * 10).rounded() / 10 == expected)
  }

  /// A phone walking at 1.4 m/s whose fixes scatter ±4 m (eph 15 m: gpsd's HDOP x 19 m for
  /// the HDOP of 0.8 a phone claims), reporting no speed of its own: gpsd fills in a speed
  /// from the last two positions, with no course (2-7 m/s of noise). Taken for the
  /// receiver's, it carried every zigzag.
  @Test func aSpeedWithoutACourseIsNotTheReceiversOwn() {
    var random = SeededGenerator(seed: 40)
    var previous = (east: 0.0, north: 0.0)
    let fixes = (0...300).map { second -> FixCandidate in
      let east = 1.4 * Double(second) + Double(Int(random.next() % 801) - 400) / 100
      let north = Double(Int(random.next() % 801) - 400) / 100
      let computed =
        ((east - previous.east) * (east - previous.east) + (north - previous.north) * (north - previous.north))
        .squareRoot()
      previous = (east, north)
      return Self.fix(
        Double(second), east: east, north: north, eph: 15, speed: second == 0 ? nil : computed, course: nil)
    }
    let (kept, _) = ReceiverClassTests.capture(fixes)
    #expect((Self.metres(kept) * 10).rounded() / 10 == 405.1)
    #expect(Self.metres(kept) <= 1.4 * 300)
  }
}
