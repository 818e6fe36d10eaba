import DashPilotCore
import Foundation
import Testing

/// `ArrivalDating` (issue 28, class 4): a fix with no date is dated by its arrival only as
/// `[Capture] DateByArrival=` allows, flagged, and a fix with a date never is.
@Suite struct ArrivalDatingTests {
  static let arrival = Date(timeIntervalSince1970: 1_730_400_000.25)
  static let undated = FixCandidate(
    mode: .threeDimensional, time: nil, coordinate: GeoCoordinate(latitude: 41.41, longitude: -81.87), eph: 19,
    age: 3)

  static func dated(_ decision: ArrivalDating.Decision) -> FixCandidate? {
    if case .judge(let candidate) = decision, candidate.isDatedByArrival { return candidate }
    return nil
  }

  @Test func anUndatedFixIsDatedByItsArrivalWhileTheClockIsSynchronised() throws {
    let decision = ArrivalDating.synchronised.decide(
      Self.undated, arrival: Self.arrival, isClockSynchronised: true, receiverDatesFixes: false)
    let dated = try #require(Self.dated(decision))
    #expect(dated.time == Self.arrival)
    #expect(dated.isDatedByArrival)
    // Dated at its arrival: no age to judge it by, and nothing else changed.
    #expect(dated.age == nil)
    #expect(dated.coordinate == Self.undated.coordinate && dated.eph == 19)
  }

  @Test func anUnsynchronisedClockLeavesTheRefusalUnlessAlways() throws {
    #expect(
      ArrivalDating.synchronised.decide(
        Self.undated, arrival: Self.arrival, isClockSynchronised: false, receiverDatesFixes: false)
        == .refuse(.invalidCoordinate))
    let always = ArrivalDating.always.decide(
      Self.undated, arrival: Self.arrival, isClockSynchronised: false, receiverDatesFixes: false)
    #expect(Self.dated(always)?.time == Self.arrival)
    #expect(
      ArrivalDating.never.decide(
        Self.undated, arrival: Self.arrival, isClockSynchronised: true, receiverDatesFixes: false)
        == .refuse(.invalidCoordinate))
  }

  @Test func withNoArrivalKnownNothingIsDated() {
    for rule in ArrivalDating.allCases {
      #expect(
        rule.decide(Self.undated, arrival: nil, isClockSynchronised: true, receiverDatesFixes: false)
          == .refuse(.invalidCoordinate))
    }
  }

  @Test func aFixWithATimeIsNeverRedated() {
    var timed = Self.undated
    timed.time = Self.arrival - 0.8
    for rule in ArrivalDating.allCases {
      #expect(
        rule.decide(timed, arrival: Self.arrival, isClockSynchronised: true, receiverDatesFixes: false)
          == .judge(timed))
    }
  }

  /// A receiver that dates its fixes and sends one without: refused, not dated up to a
  /// second after the receiver's own time for it.
  @Test func aSessionWhoseReceiverDatesItsFixesDatesNoneByArrival() {
    #expect(
      ArrivalDating.always.decide(
        Self.undated, arrival: Self.arrival, isClockSynchronised: true, receiverDatesFixes: true)
        == .refuse(.invalidCoordinate))
  }

  /// No fix, or no position: judged as they are, so the filter counts them by their own reason.
  @Test func aReportWithoutAFixIsLeftToTheFilter() {
    var noFix = Self.undated
    noFix.mode = .noFix
    var nowhere = Self.undated
    nowhere.coordinate = GeoCoordinate(latitude: .nan, longitude: .nan)
    for candidate in [noFix, nowhere] {
      let decision = ArrivalDating.always.decide(
        candidate, arrival: Self.arrival, isClockSynchronised: true, receiverDatesFixes: false)
      guard case .judge(let judged) = decision else {
        Issue.record("\(decision)")
        continue
      }
      #expect(judged.time == nil && !judged.isDatedByArrival && judged.mode == candidate.mode)
    }
  }

  @Test func theFilterKeepsTheFlagAndTheMeasurementCountsAndSaysIt() throws {
    var filter = RouteSampleFilter()
    var accumulator = RouteMileageAccumulator()
    let session = CaptureSessionID("s1")
    for second in 0..<3 {
      let candidate = try #require(
        Self.dated(
          ArrivalDating.synchronised.decide(
            FixCandidate(
              mode: .threeDimensional, time: nil,
              coordinate: GeographicDistance.destination(
                from: Self.undated.coordinate, bearing: 90, distance: Double(second) * 30), eph: 5),
            arrival: Self.arrival + Double(second), isClockSynchronised: true, receiverDatesFixes: false)))
      guard case .accepted(let sample) = filter.judge(candidate, session: session) else {
        Issue.record("fix \(second) refused")
        return
      }
      #expect(sample.isDatedByArrival)
      #expect(sample.timestamp == Self.arrival + Double(second))
      accumulator.extend(with: sample)
    }
    let distance = accumulator.distance()
    #expect(distance.positionsDatedByArrival == 3)
    #expect(distance.usesArrivalDates)
    #expect(abs(distance.metres - 60) < 0.01)
    let quality = RouteQuality(distance: distance, unit: .kilometres)
    #expect(quality.summary == "0.1 km recorded · dated by arrival")
    #expect(
      quality.qualifyingSentences == [
        "The receiver sends no date, so its positions were dated by the box's clock when they arrived."
      ])
  }
}
