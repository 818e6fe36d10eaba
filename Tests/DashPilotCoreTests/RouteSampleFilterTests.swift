import DashPilotCore
import Foundation
import Testing

/// Each rule of the capture filter, its reason, and that it never locks capture out.
struct RouteSampleFilterTests {
  static let origin = GeoCoordinate(latitude: 51.5, longitude: -0.12)
  static let start = Date(timeIntervalSince1970: 1_700_000_000)
  static let s1 = CaptureSessionID("s1")
  static let s2 = CaptureSessionID("s2")

  /// A fix `metres` east of the origin at `seconds` after the start.
  static func fix(
    east metres: Double = 0, at seconds: Double, eph: Double? = 5, speed: Double? = 10,
    mode: FixCandidate.Mode = .threeDimensional, age: TimeInterval? = 0
  ) -> FixCandidate {
    FixCandidate(
      mode: mode, time: start + seconds,
      coordinate: metres == 0
        ? origin : GeographicDistance.destination(from: origin, bearing: 90, distance: metres),
      eph: eph, speed: speed, course: 90, age: age)
  }

  static func reason(_ verdict: RouteSampleFilter.Verdict) -> SampleRejection? {
    if case let .rejected(reason) = verdict { return reason }
    return nil
  }

  @Test func acceptsTheFirstGoodFixAsItIs() throws {
    var filter = RouteSampleFilter()
    let verdict = filter.judge(Self.fix(at: 0, eph: 7.5, speed: 3), session: Self.s1)
    guard case let .accepted(sample) = verdict else {
      Issue.record("rejected: \(verdict)")
      return
    }
    #expect(sample.timestamp == Self.start)
    #expect(sample.coordinate == Self.origin)
    #expect(sample.horizontalAccuracy == 7.5)
    #expect(sample.speed == 3)
    #expect(sample.course == 90)
    #expect(sample.captureSessionID == Self.s1)
    #expect(filter.lastRetained == sample)
  }

  @Test func rejectsEachBadFixWithItsReason() {
    var filter = RouteSampleFilter()
    #expect(Self.reason(filter.judge(Self.fix(at: 0, mode: .noFix), session: Self.s1)) == .noFix)
    #expect(Self.reason(filter.judge(Self.fix(at: 0, mode: .unknown), session: Self.s1)) == .noFix)
    var noTime = Self.fix(at: 0)
    noTime.time = nil
    #expect(Self.reason(filter.judge(noTime, session: Self.s1)) == .invalidCoordinate)
    var offEarth = Self.fix(at: 0)
    offEarth.coordinate = GeoCoordinate(latitude: 91, longitude: 0)
    #expect(Self.reason(filter.judge(offEarth, session: Self.s1)) == .invalidCoordinate)
    #expect(Self.reason(filter.judge(Self.fix(at: 0, eph: nil), session: Self.s1)) == .noAccuracyEstimate)
    #expect(Self.reason(filter.judge(Self.fix(at: 0, eph: 100.01), session: Self.s1)) == .poorAccuracy)
    #expect(Self.reason(filter.judge(Self.fix(at: 0, age: 10.01), session: Self.s1)) == .stale)
    #expect(filter.lastRetained == nil)
    // At the limits a fix is kept.
    #expect(Self.reason(filter.judge(Self.fix(at: 0, eph: 100, age: 10), session: Self.s1)) == nil)
  }

  @Test func perAxisErrorsStandInForAMissingEph() {
    var filter = RouteSampleFilter()
    var wide = Self.fix(at: 0, eph: nil)
    wide.epx = 61
    wide.epy = 80
    #expect(Self.reason(filter.judge(wide, session: Self.s1)) == .poorAccuracy)
    var fix = Self.fix(at: 0, eph: nil)
    fix.epx = 30
    fix.epy = 40
    #expect(
      filter.judge(fix, session: Self.s1)
        == .accepted(
          RouteSample(
            timestamp: Self.start, coordinate: Self.origin, horizontalAccuracy: 50, speed: 10, course: 90,
            captureSessionID: Self.s1)))
  }

  @Test func rejectsATimestampThatRepeatsOrPrecedesTheLastSample() {
    var filter = RouteSampleFilter()
    _ = filter.judge(Self.fix(at: 10), session: Self.s1)
    #expect(Self.reason(filter.judge(Self.fix(east: 50, at: 10), session: Self.s1)) == .outOfOrder)
    #expect(Self.reason(filter.judge(Self.fix(east: 50, at: 9), session: Self.s2)) == .outOfOrder)
    #expect(Self.reason(filter.judge(Self.fix(east: 10, at: 11), session: Self.s1)) == nil)
  }

  @Test func rejectsAnImplausibleJumpButTrustsAStreakThatAgrees() {
    var filter = RouteSampleFilter()
    _ = filter.judge(Self.fix(at: 0), session: Self.s1)
    // 300 m in one second is 300 m/s.
    #expect(Self.reason(filter.judge(Self.fix(east: 300, at: 1), session: Self.s1)) == .implausibleSpeed)
    // Back on the road: kept, the jump forgotten.
    #expect(Self.reason(filter.judge(Self.fix(east: 12, at: 2), session: Self.s1)) == nil)
    // The last retained sample was the outlier: three fixes that agree with each other win.
    var outlier = RouteSampleFilter()
    _ = outlier.judge(Self.fix(at: 0), session: Self.s1)
    #expect(Self.reason(outlier.judge(Self.fix(east: 500, at: 1), session: Self.s1)) == .implausibleSpeed)
    #expect(Self.reason(outlier.judge(Self.fix(east: 510, at: 2), session: Self.s1)) == .implausibleSpeed)
    #expect(Self.reason(outlier.judge(Self.fix(east: 520, at: 3), session: Self.s1)) == nil)
    #expect(outlier.lastRetained?.timestamp == Self.start + 3)
  }

  @Test func aStreakThatDisagreesStartsOver() {
    var filter = RouteSampleFilter()
    _ = filter.judge(Self.fix(at: 0), session: Self.s1)
    #expect(Self.reason(filter.judge(Self.fix(east: 500, at: 1), session: Self.s1)) == .implausibleSpeed)
    #expect(Self.reason(filter.judge(Self.fix(east: -500, at: 2), session: Self.s1)) == .implausibleSpeed)
    #expect(Self.reason(filter.judge(Self.fix(east: 510, at: 3), session: Self.s1)) == .implausibleSpeed)
    #expect(filter.lastRetained?.timestamp == Self.start)
  }

  @Test func theSpeedRuleDoesNotApplyAcrossAGapOrANewSession() {
    var filter = RouteSampleFilter()
    _ = filter.judge(Self.fix(at: 0), session: Self.s1)
    // 20 km after 121 s: a gap, where the measurement breaks anyway.
    #expect(Self.reason(filter.judge(Self.fix(east: 20_000, at: 121), session: Self.s1)) == nil)
    // 20 km further after 1 s, but in a new session: kept.
    #expect(Self.reason(filter.judge(Self.fix(east: 40_000, at: 122), session: Self.s2)) == nil)
  }

  @Test func dropsMovementUnderFiveMetres() {
    var filter = RouteSampleFilter()
    _ = filter.judge(Self.fix(at: 0), session: Self.s1)
    #expect(Self.reason(filter.judge(Self.fix(east: 4.9, at: 1), session: Self.s1)) == .negligibleMovement)
    #expect(Self.reason(filter.judge(Self.fix(east: 5.1, at: 2), session: Self.s1)) == nil)
  }

  @Test func holdsAStillReceiverWithinTwiceItsErrorEstimate() {
    var filter = RouteSampleFilter()
    _ = filter.judge(Self.fix(at: 0, eph: 20, speed: 0), session: Self.s1)
    // Reported speed under 2 m/s: wander within 2 x 20 m is not driving.
    #expect(
      Self.reason(filter.judge(Self.fix(east: 39, at: 1, eph: 20, speed: 1.9), session: Self.s1)) == .negligibleMovement
    )
    // The same distance at driving speed is kept.
    var moving = RouteSampleFilter()
    _ = moving.judge(Self.fix(at: 0, eph: 20, speed: 19.5), session: Self.s1)
    #expect(Self.reason(moving.judge(Self.fix(east: 39, at: 2, eph: 20, speed: 19.5), session: Self.s1)) == nil)
  }

  @Test func holdsAStillReceiverThatReportsNoSpeedByItsImpliedSpeed() {
    var filter = RouteSampleFilter()
    _ = filter.judge(Self.fix(at: 0, eph: 30, speed: nil), session: Self.s1)
    // 25 m in 50 s: 0.5 m/s, within 60 m of error: held.
    #expect(
      Self.reason(filter.judge(Self.fix(east: 25, at: 50, eph: 30, speed: nil), session: Self.s1))
        == .negligibleMovement)
    // 25 m in 5 s since the last kept sample: 5 m/s, moving, but within the ends' 30 m
    // error, which without speeds a move must clear (`unspeededMoveErrorFraction`); 35 m
    // in 7 s clears it: kept.
    var moving = RouteSampleFilter()
    _ = moving.judge(Self.fix(at: 0, eph: 30, speed: nil), session: Self.s1)
    #expect(
      Self.reason(moving.judge(Self.fix(east: 25, at: 5, eph: 30, speed: nil), session: Self.s1))
        == .negligibleMovement)
    #expect(Self.reason(moving.judge(Self.fix(east: 35, at: 7, eph: 30, speed: nil), session: Self.s1)) == nil)
  }

  @Test func theHoldNeverLocksOut() {
    var filter = RouteSampleFilter()
    _ = filter.judge(Self.fix(at: 0, eph: 10, speed: 0), session: Self.s1)
    // Held for an hour of wander: nothing but a held sample a minute ...
    var rejected = 0
    var held: [RouteSample] = []
    for second in 1...3600 {
      let east = Double(second % 7) * 2.5
      switch filter.judge(Self.fix(east: east, at: Double(second), eph: 10, speed: 0.3), session: Self.s1) {
      case .rejected(.negligibleMovement): rejected += 1
      case .accepted(let sample) where sample.isHeld: held.append(sample)
      case let other: Issue.record("second \(second): \(other)")
      }
    }
    #expect(held.count == 60)
    #expect(rejected == 3540)
    #expect(held.map { $0.timestamp.timeIntervalSince(Self.start) } == (1...60).map { Double($0 * 60) })
    // ... but moving off, even slowly (1.5 m/s, as its speed says), is kept.
    let base = filter.lastRetained?.coordinate ?? Self.origin
    var moved: [RouteSample] = []
    for second in 1...60 {
      let position = GeographicDistance.destination(from: base, bearing: 90, distance: 1.5 * Double(second))
      let fix = FixCandidate(
        mode: .threeDimensional, time: Self.start + 3600 + Double(second), coordinate: position, eph: 10, speed: 1.5,
        course: 90, age: 0)
      if case .accepted(let sample) = filter.judge(fix, session: Self.s1) { moved.append(sample) }
    }
    // Once the positions follow the speed and course beyond the 10 m error (after 7 s) it
    // moves, a sample each 10.5 m; the last 4.5 m of the minute are not a move yet.
    #expect(moved.allSatisfy { !$0.isHeld })
    #expect(moved.count == 8)
    let recorded = RouteMileageCalculator().distance(of: held + moved).metres
    #expect(abs(recorded - 85.5) < 0.5, "\(recorded)")
  }

  @Test func theFirstFixOfANewSessionIsKeptWhereverItIs() {
    var filter = RouteSampleFilter()
    _ = filter.judge(Self.fix(at: 0, eph: 20, speed: 0), session: Self.s1)
    #expect(Self.reason(filter.judge(Self.fix(east: 1, at: 30, eph: 20, speed: 0), session: Self.s2)) == nil)
    #expect(filter.lastRetained?.captureSessionID == Self.s2)
    #expect(
      Self.reason(filter.judge(Self.fix(east: 2, at: 31, eph: 20, speed: 0), session: Self.s2)) == .negligibleMovement)
  }

  @Test func resetJudgesFromTheGivenSample() {
    var filter = RouteSampleFilter()
    _ = filter.judge(Self.fix(at: 100), session: Self.s1)
    filter.reset(lastRetained: nil)
    #expect(Self.reason(filter.judge(Self.fix(at: 50), session: Self.s1)) == nil)
    let stored = RouteSample(
      timestamp: Self.start + 200, coordinate: Self.origin, horizontalAccuracy: 5, captureSessionID: Self.s1)
    filter.reset(lastRetained: stored)
    #expect(Self.reason(filter.judge(Self.fix(east: 100, at: 150), session: Self.s2)) == .outOfOrder)
    #expect(filter.lastRetained == stored)
  }
}
