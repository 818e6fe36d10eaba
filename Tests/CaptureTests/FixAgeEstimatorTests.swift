import DashPilotCore
import Foundation
import Testing

/// The staleness rule: ages learned from the fixes themselves, the wall clock only when it
/// is synchronised and shares the fixes' time base.
struct FixAgeEstimatorTests {
  static let fixEpoch = 1_714_557_600.0  // 2024-05-01T10:00:00Z
  static func fixTime(_ seconds: Double) -> Date { Date(timeIntervalSince1970: fixEpoch + seconds) }

  @Test func fixesOnTimeAreAgeZeroWhateverTheClocksSay() {
    var estimator = FixAgeEstimator()
    // Monotonic clock at 50 s since boot; fix times in 2024: the offset is huge but steady.
    for second in 0..<20 {
      let age = estimator.age(ofFixAt: Self.fixTime(Double(second)), arrival: 50 + Double(second) + 0.2)
      #expect(age == 0)
    }
  }

  @Test func aFixThatArrivesLateIsAsOldAsItsDelay() {
    var estimator = FixAgeEstimator()
    for second in 0..<10 {
      _ = estimator.age(ofFixAt: Self.fixTime(Double(second)), arrival: 100 + Double(second))
    }
    // Fix time 10 s, arriving 12 s after it should have.
    #expect(estimator.age(ofFixAt: Self.fixTime(10), arrival: 122) == 12)
    // The next one on time again.
    #expect(estimator.age(ofFixAt: Self.fixTime(23), arrival: 123) == 0)
  }

  @Test func theFreshestFixSetsTheRelation() {
    var estimator = FixAgeEstimator()
    // A receiver that starts by flushing buffered fixes, 30 s late, then catches up.
    #expect(estimator.age(ofFixAt: Self.fixTime(0), arrival: 30) == 0)
    #expect(estimator.age(ofFixAt: Self.fixTime(1), arrival: 30.5) == 0)
    #expect(estimator.age(ofFixAt: Self.fixTime(31), arrival: 31) == 0)
    // Now a buffered fix shows its true age.
    #expect(estimator.age(ofFixAt: Self.fixTime(2), arrival: 31.5) == 29.5)
  }

  @Test func aSynchronisedWallClockCatchesAStreamLateFromItsFirstFix() {
    var estimator = FixAgeEstimator()
    let age = estimator.age(
      ofFixAt: Self.fixTime(0), arrival: 10, synchronisedWallClock: Self.fixTime(15))
    #expect(age == 15)
    // The learned relation alone would have said 0.
    var learnedOnly = FixAgeEstimator()
    #expect(learnedOnly.age(ofFixAt: Self.fixTime(0), arrival: 10) == 0)
  }

  @Test func aWallClockOnAnotherTimeBaseIsIgnored() {
    var estimator = FixAgeEstimator()
    // A log from 2018 replayed to a gpsd on a box whose clock is right: 6 years apart.
    let fix2018 = Date(timeIntervalSince1970: 1_534_758_467)
    let age = estimator.age(ofFixAt: fix2018, arrival: 10, synchronisedWallClock: Self.fixTime(0))
    #expect(age == 0)
    // A box without an RTC that believes it is 1970 is not synchronised: the caller passes
    // no wall clock at all, and the fix is still fresh.
    var noRTC = FixAgeEstimator()
    #expect(noRTC.age(ofFixAt: Self.fixTime(0), arrival: 3) == 0)
  }

  @Test func theWindowForgetsSoAJumpIsRelearned() {
    var estimator = FixAgeEstimator(window: 120)
    for second in 0...10 {
      _ = estimator.age(ofFixAt: Self.fixTime(Double(second)), arrival: Double(second))
    }
    // The receiver's time jumps back 1000 s: its fixes look 1000 s old ...
    #expect(estimator.age(ofFixAt: Self.fixTime(-989), arrival: 11) == 1000)
    #expect(estimator.age(ofFixAt: Self.fixTime(-880), arrival: 120) == 1000)
    // ... until the old relation leaves the window (arrival 10 + 120 < 131).
    #expect(estimator.age(ofFixAt: Self.fixTime(-869), arrival: 131) == 0)
  }

  @Test func resetForgetsAtOnce() {
    var estimator = FixAgeEstimator()
    _ = estimator.age(ofFixAt: Self.fixTime(0), arrival: 0)
    #expect(estimator.age(ofFixAt: Self.fixTime(-500), arrival: 1) == 501)
    estimator.reset()
    #expect(estimator.age(ofFixAt: Self.fixTime(-499), arrival: 2) == 0)
  }

  @Test func nonFiniteInputHasNoAgeAndTeachesNothing() {
    var estimator = FixAgeEstimator()
    #expect(estimator.age(ofFixAt: Self.fixTime(0), arrival: .nan) == nil)
    #expect(estimator.age(ofFixAt: Date(timeIntervalSince1970: .infinity), arrival: 1) == nil)
    _ = estimator.age(ofFixAt: Self.fixTime(0), arrival: 0)
    #expect(estimator.age(ofFixAt: Self.fixTime(1), arrival: 4) == 3)
  }

  @Test func aLongRunStaysExactAndCompact() {
    var estimator = FixAgeEstimator(window: 60)
    var worst = 0.0
    for second in 0..<100_000 {
      let jitter = Double(second % 5) * 0.1
      let age = estimator.age(ofFixAt: Self.fixTime(Double(second)), arrival: Double(second) + jitter) ?? .nan
      worst = max(worst, age)
    }
    // The delay varies 0-0.4 s; nothing is judged older than that.
    #expect(abs(worst - 0.4) < 1e-6)
  }
}
