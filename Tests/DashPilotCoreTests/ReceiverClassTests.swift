import DashPilotCore
import Foundation
import TestSupport
import Testing

/// The classes of receiver behaviour that real recordings showed capture getting wrong
/// (issue 13), one test each, through the pure filter and the one-pass calculator: what the
/// daemon, replay and import all run.
struct ReceiverClassTests {
  static let origin = GeoCoordinate(latitude: 48.2, longitude: 8.4)
  static let start = Date(timeIntervalSince1970: 1_730_000_000)
  static let session = CaptureSessionID("s1")

  /// A 1 Hz receiver: `fix(second, east:, north:)` from the origin.
  static func fix(
    _ second: Double, east: Double = 0, north: Double = 0, eph: Double? = 5, speed: Double? = 0,
    mode: FixCandidate.Mode = .threeDimensional
  ) -> FixCandidate {
    var position = GeographicDistance.destination(from: origin, bearing: 90, distance: east)
    position = GeographicDistance.destination(from: position, bearing: 0, distance: north)
    return FixCandidate(
      mode: mode, time: start + second, coordinate: position, eph: eph, speed: speed, course: 90, age: 0)
  }

  /// Judges `fixes` in one session; returns the kept samples and the verdicts' reasons.
  static func capture(
    _ fixes: [FixCandidate], configuration: RouteSampleFilterConfiguration = .init()
  ) -> (kept: [RouteSample], rejected: [SampleRejection: Int]) {
    var filter = RouteSampleFilter(configuration: configuration)
    var kept: [RouteSample] = []
    var rejected: [SampleRejection: Int] = [:]
    for fix in fixes {
      switch filter.judge(fix, session: session) {
      case .accepted(let sample): kept.append(sample)
      case .rejected(let reason): rejected[reason, default: 0] += 1
      }
    }
    return (kept, rejected)
  }

  /// A bounded random walk of `seconds` parked fixes around (east, north), seeded.
  static func parked(
    from first: Int, seconds: Int, east: Double = 0, north: Double = 0, eph: Double = 8, seed: UInt64
  ) -> [FixCandidate] {
    var random = SeededGenerator(seed: seed)
    var (x, y) = (0.0, 0.0)
    return (first..<(first + seconds)).map { second in
      x = min(10, max(-10, x + Double(random.next() % 2001) / 1000 - 1))
      y = min(10, max(-10, y + Double(random.next() % 2001) / 1000 - 1))
      return fix(Double(second), east: east + x, north: north + y, eph: eph, speed: Double(random.next() % 40) / 100)
    }
  }

  /// A drive east at 12 m/s from `east` metres for `seconds`.
  static func drive(from first: Int, seconds: Int, east: Double) -> [FixCandidate] {
    (0..<seconds).map { i in fix(Double(first + i), east: east + 12 * Double(i), speed: 12) }
  }

  @Test func aTenMinuteStopBetweenTwoDrivesIsOneUnbrokenStretch() {
    let fixes =
      Self.drive(from: 0, seconds: 60, east: 0) + Self.parked(from: 60, seconds: 600, east: 720, seed: 1)
      + Self.drive(from: 660, seconds: 60, east: 720)
    let (kept, _) = Self.capture(fixes)
    let held = kept.filter(\.isHeld)
    // A held sample a minute while parked: the stretch is never silent for 120 s. The
    // car stops from 12 m/s within one second, a fix that says 0.3 m/s inside its noise:
    // the last kept move is the one before it, and the ten minutes hold ten times.
    #expect(held.count == 10)
    let times = kept.map(\.timestamp.timeIntervalSince1970)
    #expect(zip(times, times.dropFirst()).allSatisfy { $1 - $0 <= 61 })
    let distance = RouteMileageCalculator().distance(of: kept, covering: DateInterval(start: Self.start, duration: 719))
    #expect(distance.gaps == 0)
    #expect(distance.segments == 1)
    #expect(!distance.isPartial)
    // Both drives (708 m each) and the 12 m into the parking place, give or take where
    // the parked receiver's wander (10 m) put its position on arriving and leaving; the
    // ten minutes of wander themselves add nothing. The 12 m of the sudden stop are in
    // the noise of a parked receiver; the drive off is measured from the last held
    // sample (10.8 m to the first move instead of 12).
    #expect(abs(distance.metres - 1414.8) < 0.1, "\(distance.metres)")
  }

  @Test func oneReflectedFixAfterAThreeHourParkIsNotKept() {
    var fixes = Self.parked(from: 0, seconds: 10_800, seed: 2)
    // 300 m away, claiming 8 m and 0.2 m/s: a signal that bounced.
    fixes.append(Self.fix(10_800, east: 300, eph: 8, speed: 0.2))
    fixes += Self.parked(from: 10_801, seconds: 600, seed: 3)
    let (kept, rejected) = Self.capture(fixes)
    #expect(rejected[.implausibleSpeed] == 1)
    #expect(!kept.contains { $0.timestamp == Self.start + 10_800 })
    let distance = RouteMileageCalculator().distance(of: kept)
    #expect(distance.metres == 0)
    #expect(distance.gaps == 0)
  }

  @Test func aColdStartsFirstFixes110MetresOffAreNotDriving() {
    // The first 40 fixes sit 110 m off claiming 30 m, then the receiver settles where it is.
    let cold = (0..<40).map { Self.fix(Double($0), east: -60, north: -92, eph: 30, speed: 0) }
    let settled = Self.parked(from: 40, seconds: 900, eph: 6, seed: 4)
    let (kept, rejected) = Self.capture(cold + settled)
    #expect(rejected[.unconfirmedMovement, default: 0] > 0)
    // The move to the true position is a held sample, not a kept move.
    #expect(kept.dropFirst().allSatisfy { $0.isHeld })
    #expect(RouteMileageCalculator().distance(of: kept).metres == 0)
  }

  @Test func aPoorFirstFixDoesNotHoldASlowTrackStill() {
    // The first kept fix claims 84 m; then good 3 m fixes creep 105.6 m at 1.2 m/s.
    let first = Self.fix(0, east: 20, north: -15, eph: 84, speed: 0)
    let creep = (1...88).map { Self.fix(Double($0), east: 1.2 * Double($0), eph: 3, speed: 1.2) }
    let (kept, _) = Self.capture([first] + creep)
    let metres = RouteMileageCalculator().distance(of: kept).metres
    // Before, the hold compared against twice 84 m and kept nothing past the first fix.
    // Once its positions follow its speed and course beyond their 3 m error, the creep is
    // moving and each 5 m of it is a move (it was held within twice that error).
    #expect(kept.count == 17)
    #expect(metres >= 90 && metres <= 105.6 + 25, "\(metres)")
  }

  @Test func aReceiverThatReportsNoErrorEstimateRecordsWithTheAssumedAccuracy() {
    let fixes = (0..<60).map { Self.fix(Double($0), east: 12 * Double($0), eph: nil, speed: 12) }
    let (kept, rejected) = Self.capture(fixes)
    // Its first fix time shows it reports none; from the second on, 25 m is assumed.
    #expect(rejected == [.noAccuracyEstimate: 1])
    #expect(kept.count == 59)
    #expect(kept.allSatisfy { $0.isAccuracyAssumed && $0.horizontalAccuracy == 25 })
    let distance = RouteMileageCalculator().distance(of: kept)
    #expect(distance.positionsWithAssumedAccuracy == 59)
    #expect(abs(distance.metres - 12 * 58) < 0.5)
    #expect(RouteQuality(distance: distance, unit: .kilometres).summary == "0.7 km recorded · accuracy assumed")
    // Off: every fix is refused, as before.
    var off = RouteSampleFilterConfiguration()
    off.assumedAccuracy = nil
    #expect(Self.capture(fixes, configuration: off).rejected == [.noAccuracyEstimate: 60])
  }

  @Test func aReceiverWhoseFirstReportOfAnInstantLacksTheEstimateNeverHasItAssumed() {
    // RMC then GGA for each second: the RMC report has no eph, the GGA one has.
    var filter = RouteSampleFilter()
    var assumed = 0
    for second in 0..<30 {
      for eph in [nil, 6.0] {
        if case .accepted(let sample) = filter.judge(
          Self.fix(Double(second), east: 12 * Double(second), eph: eph, speed: 12), session: Self.session),
          sample.isAccuracyAssumed
        {
          assumed += 1
        }
      }
    }
    #expect(assumed == 0)
  }

  @Test func noiseDoesNotLiftASlowTrackAboveItsLength() {
    // Walking 1.4 m/s for 20 minutes east; every position 10-20 m off, drifting.
    var random = SeededGenerator(seed: 5)
    var (x, y) = (0.0, 0.0)
    let fixes = (0..<1200).map { second -> FixCandidate in
      x = 0.92 * x + Double(Int(random.next() % 8001) - 4000) / 1000
      y = 0.92 * y + Double(Int(random.next() % 8001) - 4000) / 1000
      return Self.fix(Double(second), east: 1.4 * Double(second) + x, north: y, eph: 15, speed: 1.4)
    }
    let (kept, _) = Self.capture(fixes)
    let metres = RouteMileageCalculator().distance(of: kept).metres
    // The walk is 1678.6 m long.
    #expect(metres <= 1678.6, "\(metres)")
    #expect(metres >= 0.8 * 1678.6, "\(metres)")
  }

  @Test func positionsFarAheadOfSpeedsThatAreWrongAreBelieved() {
    // Sailing 3 m/s east for 10 minutes while the reported speed says 0-0.3 (as gpsd
    // reports bundg_zeus_9's). Positions are believed once three fixes over three seconds
    // agree with each other, step after step, and have gone beyond twice the error
    // (22.8 m) ahead of such speeds: all but the last such stretch is measured.
    let fixes = (0..<600).map { Self.fix(Double($0), east: 3 * Double($0), eph: 11.4, speed: $0 % 2 == 0 ? 0.3 : 0) }
    let (kept, _) = Self.capture(fixes)
    let metres = RouteMileageCalculator().distance(of: kept).metres
    #expect(metres >= 1797 - 2 * 11.4, "\(metres)")
    #expect(metres <= 1797)
  }
}
