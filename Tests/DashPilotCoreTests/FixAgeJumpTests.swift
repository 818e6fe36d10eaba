import DashPilotCore
import Foundation
import Testing

/// A fix dated ahead of the learned relation is not believed alone; two that agree are.
@Suite struct FixAgeJumpTests {
  let base = Date(timeIntervalSince1970: 1_700_000_000)

  @Test func aLoneFixDatedYearsAheadIsRejectedAndTheTrueFixesAfterItAreKept() {
    var estimator = FixAgeEstimator()
    var filter = RouteSampleFilter()
    var kept: [Date] = []
    var rejected: [SampleRejection] = []
    func feed(_ time: Date, arrival: Double, metres: Double) {
      let age = estimator.age(ofFixAt: time, arrival: arrival)
      let coordinate = GeographicDistance.destination(
        from: GeoCoordinate(latitude: 51.5, longitude: -0.12), bearing: 90, distance: metres)
      let fix = FixCandidate(
        mode: .threeDimensional, time: time, coordinate: coordinate, eph: 8, speed: 10, course: 90, age: age)
      switch filter.judge(fix, session: CaptureSessionID("s")) {
      case let .accepted(sample): kept.append(sample.timestamp)
      case let .rejected(reason): rejected.append(reason)
      }
    }
    for n in 0..<5 { feed(base + Double(n), arrival: Double(n), metres: Double(n) * 10) }
    feed(base + 5 * 365 * 86_400, arrival: 4.5, metres: 45)
    for n in 5..<10 { feed(base + Double(n), arrival: Double(n), metres: Double(n) * 10) }
    #expect(kept == (0..<10).map { base + Double($0) })
    #expect(rejected == [.futureTime])
  }

  @Test func twoFixesThatAgreeOnAJumpAreBelieved() {
    var estimator = FixAgeEstimator()
    #expect(estimator.age(ofFixAt: base, arrival: 0) == 0)
    #expect(estimator.age(ofFixAt: base + 1, arrival: 1) == 0)
    let week = 7 * 86_400.0
    #expect(estimator.age(ofFixAt: base + 2 + week, arrival: 2) == -week)
    // The next fix agrees with the jump: the receiver's time really moved.
    #expect(estimator.age(ofFixAt: base + 3 + week, arrival: 3) == 0)
    #expect(estimator.age(ofFixAt: base + 4 + week, arrival: 4.25) == 0.25)
  }
}
