import DashPilotCore
import Foundation
import Testing

/// A receiver that reports no speeds (GGA only, dated by arrival: issue 28, class 4) has no
/// speeds to cap what position noise adds, so a move must clear its two ends' error
/// estimates (`unspeededMoveErrorFraction`): kept chords long enough that the noise across
/// them adds little. Through the pure filter and the one-pass calculator.
struct UnspeededMoveTests {
  typealias Class = ReceiverClassTests

  /// 1 Hz east at 10 m/s for 60 s (600 m), each fix 1.5 m north or south of the road in
  /// turn, error estimate 18 m; `speed` nil as GGA gives it.
  static func zigzag(speed: Double?) -> [FixCandidate] {
    (0...60).map { second in
      Class.fix(
        Double(second), east: 10 * Double(second), north: second % 2 == 0 ? 1.5 : -1.5, eph: 18, speed: speed)
    }
  }

  static var everyStep: RouteSampleFilterConfiguration {
    var configuration = RouteSampleFilterConfiguration()
    configuration.unspeededMoveErrorFraction = 0
    return configuration
  }

  @Test func withoutSpeedsAMoveMustClearItsEndsErrorSoNoiseCannotLiftTheFigure() {
    let fixes = Self.zigzag(speed: nil)
    // Every 10 m step kept, the 3 m zigzag across each adds 0.44 m: 60 × √109 = 626.4 m.
    let (all, _) = Class.capture(fixes, configuration: Self.everyStep)
    #expect(all.count == 61)
    let naive = RouteMileageCalculator().distance(of: all).metres
    #expect(abs(naive - 626.4) < 0.1, "\(naive)")
    // A move under 18 m is refused: every second fix is kept, 20 m on, on the same side of
    // the road as the one before, so the chords add up to the 600 m driven.
    let (kept, rejected) = Class.capture(fixes)
    #expect(kept.map(\.timestamp) == stride(from: 0.0, through: 60, by: 2).map { Class.start + $0 })
    #expect(rejected == [.negligibleMovement: 30])
    let metres = RouteMileageCalculator().distance(of: kept).metres
    #expect(abs(metres - 600) < 0.1 && metres <= 600.05, "\(metres)")
  }

  @Test func aStopWithoutSpeedsLeavesTheStretchBeforeItUnmeasuredNeverOverMeasured() {
    // East at 10 m/s for 25 s (250 m), then parked 30 s at 250 m, 3 m south of the road (a
    // position error the parked receiver keeps); error estimate 18 m, no speeds.
    var fixes = (0...25).map { Class.fix(Double($0), east: 10 * Double($0), eph: 18, speed: nil) }
    fixes += (26...55).map { Class.fix(Double($0), east: 250, north: -3, eph: 18, speed: nil) }
    let (kept, rejected) = Class.capture(fixes)
    // Kept every second fix to 240 m; the last 10 m and the 3 m step at the stop do not
    // clear 18 m: 240 m of 250 m.
    #expect(kept.last?.timestamp == Class.start + 24)
    #expect(rejected == [.negligibleMovement: 43])
    let metres = RouteMileageCalculator().distance(of: kept).metres
    #expect(abs(metres - 240) < 0.1, "\(metres)")
  }

  @Test func aReceiverThatReportsSpeedsIsNotJudgedByIt() {
    // The same zigzag with its speeds: they cap the figure, and the rule for moves without
    // speeds changes nothing.
    let fixes = Self.zigzag(speed: 10)
    let (kept, rejected) = Class.capture(fixes)
    let (withoutRule, rejectedWithoutRule) = Class.capture(fixes, configuration: Self.everyStep)
    #expect(kept == withoutRule)
    #expect(rejected == rejectedWithoutRule)
    #expect(kept.count == 34)
    // The speeds carried 600 m; the once-a-stretch margin and one overdraft allow 2.6 m.
    let metres = RouteMileageCalculator().distance(of: kept).metres
    #expect(abs(metres - 602.6) < 0.1, "\(metres)")
  }
}
