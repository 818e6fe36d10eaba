import DashPilotCore
import Foundation
import TestSupport
import Testing

/// The receiver classes of issue 28, one test each, through the pure filter and the
/// one-pass calculator (what the daemon, replay and import all run): a position that
/// outruns the receiver's speeds is believed only on sustained agreement, never on one
/// jump; a fix-mode change is a re-solution; a walker is not held still by its error
/// estimate; the speeds cap the figure under jitter.
struct ReceiverClassRoundThreeTests {
  typealias Class = ReceiverClassTests

  /// A fix `east`/`north` metres from the origin at `second`, with its course.
  static func fix(
    _ second: Double, east: Double, north: Double = 0, eph: Double?, speed: Double, course: Double = 90,
    mode: FixCandidate.Mode = .threeDimensional
  ) -> FixCandidate {
    var position = GeographicDistance.destination(from: Class.origin, bearing: 90, distance: east)
    position = GeographicDistance.destination(from: position, bearing: 0, distance: north)
    return FixCandidate(
      mode: mode, time: Class.start + second, coordinate: position, eph: eph, speed: speed, course: course, age: 0)
  }

  /// `count` values in -1...1, the same every run.
  static func noise(_ count: Int, seed: UInt64) -> [Double] {
    var random = SeededGenerator(seed: seed)
    return (0..<count).map { _ in Double(random.next() % 2001) / 1000 - 1 }
  }

  @Test func aColdStartThatJumpsWhenItSwitchesTo3DIsNoMove() {
    // Parked at the origin. 30 s of 2D fixes with no error estimate 355 m south-west, then
    // 3D: the position jumps 355 m while the speed says 0.07 m/s, steps 30-60 m a second
    // for 15 s as the solution settles, and stays. 25 m was assumed for the 2D fixes, so
    // "8 error radii ahead of the speeds" believed the jump: 355 m and more, from nothing.
    var fixes = (0..<30).map {
      Self.fix(Double($0), east: -251, north: -251, eph: nil, speed: 0.05, mode: .twoDimensional)
    }
    fixes.append(Self.fix(30, east: 0, north: 0, eph: 49, speed: 0.07))
    let steps = [(45.0, 30.0), (-20.0, 50.0), (-50.0, -10.0), (10.0, -55.0), (40.0, 25.0)]
    for i in 0..<15 {
      let (east, north) = steps[i % steps.count]
      fixes.append(Self.fix(Double(31 + i), east: east, north: north, eph: 47 - Double(i), speed: 0.2))
    }
    fixes += (46..<300).map { Self.fix(Double($0), east: 1, north: -1, eph: 8, speed: 0.05) }
    let (kept, rejected) = Class.capture(fixes)
    #expect(RouteMileageCalculator().distance(of: kept).metres == 0)
    // The first 2D fix that may assume 25 m anchors; the switch to 3D is held at once.
    #expect(kept.first?.isAccuracyAssumed == true)
    #expect(kept.dropFirst().allSatisfy { $0.isHeld })
    #expect(kept[1].timestamp == Class.start + 30)
    #expect(rejected[.noAccuracyEstimate] == 1)
  }

  @Test func fixesThatAgreeOnAPositionFarFromAParkedReceiverAreWhereItIsButNoMove() {
    // Parked; then three fixes in a row 300 m away that agree with each other (a signal
    // bounced for seconds, or the reference was the outlier), and it stays there.
    var fixes = (0..<30).map { Self.fix(Double($0), east: 0, eph: 8, speed: 0.1) }
    fixes += (30..<120).map { Self.fix(Double($0), east: 300, eph: 8, speed: 0.1) }
    let (kept, rejected) = Class.capture(fixes)
    #expect(rejected[.implausibleSpeed] == 2)
    #expect(RouteMileageCalculator().distance(of: kept).metres == 0)
    #expect(kept.dropFirst().allSatisfy { $0.isHeld })
  }

  @Test func aFixModeChangeIsAReSolutionNotAMove() {
    // Driving east at 12 m/s; at 30 s the receiver drops to 2D and its solution steps
    // 20 m ahead of where it was, and stays that far ahead. Refused as ahead of the
    // speeds, every later fix was as far ahead until a held sample a minute later.
    var fixes = (0..<30).map { Self.fix(Double($0), east: 12 * Double($0), eph: 10, speed: 12) }
    fixes += (30..<90).map {
      Self.fix(Double($0), east: 12 * Double($0) + 20, eph: 15, speed: 12, mode: .twoDimensional)
    }
    let (kept, _) = Class.capture(fixes)
    let switched = kept.first { $0.timestamp == Class.start + 30 }
    #expect(switched?.isHeld == true)
    #expect(kept.filter(\.isHeld).count == 1)
    // The drive is 1,068 m; the step into the re-solution (12 m) is not measured.
    let metres = RouteMileageCalculator().distance(of: kept).metres
    #expect(abs(metres - 1056) < 0.5, "\(metres)")
  }

  @Test func aWalkerWhoseErrorEstimateWouldHoldItStillIsMeasured() {
    // Walking 1.4 m/s east for 10 minutes with gpsd's error estimate of a logger's HDOP
    // (2.4 x 19 m = 45.6 m): twice that is more than a minute's walk, so the walker was
    // held still, a held sample a minute, and nothing was measured.
    let jitter = Self.noise(1200, seed: 11)
    let fixes = (0..<600).map { second in
      Self.fix(
        Double(second), east: 1.4 * Double(second) + 3 * jitter[2 * second], north: 3 * jitter[2 * second + 1],
        eph: 45.6, speed: 1.4 + 0.1 * jitter[(2 * second + 7) % 1200], course: 90 + 10 * jitter[(second * 3) % 1200])
    }
    let (kept, _) = Class.capture(fixes)
    let metres = RouteMileageCalculator().distance(of: kept).metres
    #expect(metres <= 1.4 * 599, "\(metres)")
    #expect(metres >= 0.9 * 1.4 * 599, "\(metres)")
  }

  @Test func aParkedReceiverWhoseSpeedAndCourseDriftTogetherStaysStill() {
    // haicom-305N in gpsd's logs, parked: it reports 1.1-1.2 m/s on a steady course for
    // 15-20 s at a time while its position drifts that way, then turns back. Its drift
    // never leaves its error (24.7 m), so it is wander, not walking.
    var fixes: [FixCandidate] = []
    var east = 0.0
    for second in 0..<900 {
      let outward = (second / 15) % 2 == 0
      east += outward ? 1.15 : -1.15
      fixes.append(Self.fix(Double(second), east: east, eph: 24.7, speed: 1.15, course: outward ? 90 : 270))
    }
    let (kept, _) = Class.capture(fixes)
    #expect(RouteMileageCalculator().distance(of: kept).metres == 0)
  }

  @Test func jitterOnADriveWhoseSpeedsAreExactStaysUnderTheRoad() {
    // 20 minutes east at 13 m/s with three two-minute stops (a parked receiver's speed
    // noise of 0-0.4 m/s), every fix 1 m off at random, the speeds exact: the road is
    // 11,700 m. Each fix's noise added its own few centimetres, and the credit the speeds
    // gave was given afresh at every held sample: the figure came out above the road.
    let jitter = Self.noise(4000, seed: 12)
    var fixes: [FixCandidate] = []
    var east = 0.0
    var second = 0
    for leg in 0..<4 {
      for _ in 0..<225 {
        east += 13
        fixes.append(
          Self.fix(Double(second), east: east + jitter[2 * second], north: jitter[2 * second + 1], eph: 19, speed: 13))
        second += 1
      }
      guard leg < 3 else { break }
      for _ in 0..<120 {
        fixes.append(
          Self.fix(
            Double(second), east: east + jitter[2 * second], north: jitter[2 * second + 1], eph: 19,
            speed: 0.2 + 0.2 * jitter[(3 * second) % 4000]))
        second += 1
      }
    }
    let (kept, _) = Class.capture(fixes)
    let metres = RouteMileageCalculator().distance(of: kept).metres
    #expect(metres <= 11_700 - 13, "\(metres)")
    #expect(metres >= 0.995 * 11_700, "\(metres)")
  }

  @Test func aTunnelTheSpeedsEitherSideCannotCarryIsMeasuredOnceTheFixesAfterItAgree() {
    // 12 m/s into a tunnel, 16 m/s unseen for 40 s, 12 m/s out: the speeds either side
    // carry 480 m of its 640 m. The fixes after it agree with each other and with the
    // time elapsed, so the positions are believed; one jump alone never is.
    let jitter = Self.noise(300, seed: 13)
    var fixes = (0..<30).map {
      Self.fix(Double($0), east: 12 * Double($0) + jitter[$0], north: jitter[$0 + 150], eph: 8, speed: 12)
    }
    fixes += (70..<130).map {
      Self.fix(Double($0), east: 988 + 12 * Double($0 - 70) + jitter[$0], north: jitter[$0 + 150], eph: 8, speed: 12)
    }
    let (kept, rejected) = Class.capture(fixes)
    #expect(rejected[.implausibleSpeed] == 2)
    let metres = RouteMileageCalculator().distance(of: kept).metres
    // The road from the first fix to the last: 348 + 640 + 708 m, give or take a metre
    // of noise at either end.
    #expect(metres <= 1696 + 2, "\(metres)")
    #expect(metres >= 1696 - 13, "\(metres)")
  }

  @Test func aSilenceLongerThanTheIntervalIsJudgedAlikeWhetherTheSessionWentOnOrNot() {
    // 60 s east at 12 m/s, parked for a minute, then 150 s without fixes (a receiver that
    // just falls silent keeps its session; one gpsd saw unplugged starts a new one) in
    // which the car drives off unseen, and 60 s more at 12 m/s, 1,500 m on: further than
    // the speeds either side carry. The measurement sees a gap either way, so the fixes
    // after it must be kept alike. Within one session the unmeasured step across the
    // silence was owed to the speeds: one fix in four was kept after it (the daemon's
    // city drive kept 635 where replay, which saw the unplug, kept 789).
    var fixes = (0..<60).map { Self.fix(Double($0), east: 12 * Double($0), eph: 8, speed: 12) }
    fixes += (60..<120).map { Self.fix(Double($0), east: 708, eph: 8, speed: 0) }
    let after = (270..<330).map { Self.fix(Double($0), east: 2208 + 12 * Double($0 - 270), eph: 8, speed: 12) }
    func kept(sessionAfter session: CaptureSessionID) -> [RouteSample] {
      var filter = RouteSampleFilter()
      let judged =
        fixes.map { filter.judge($0, session: Class.session) } + after.map { filter.judge($0, session: session) }
      return judged.compactMap { if case .accepted(let sample) = $0 { sample } else { nil } }
    }
    let wentOn = kept(sessionAfter: Class.session)
    let newSession = kept(sessionAfter: CaptureSessionID("s2"))
    #expect(wentOn.map(\.timestamp) == newSession.map(\.timestamp))
    // Every moving fix, and the held sample a minute into the stop.
    #expect(wentOn.count == 121)
    #expect(wentOn.filter(\.isHeld).map(\.timestamp) == [Class.start + 119])
    let measured = RouteMileageCalculator().distance(of: wentOn)
    #expect(abs(measured.metres - 2 * 708) < 0.01, "\(measured.metres)")
    #expect(measured.gaps == 1)
  }
}
