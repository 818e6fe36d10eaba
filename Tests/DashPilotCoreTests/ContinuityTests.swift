import DashPilotCore
import Foundation
import TestSupport
import Testing

/// Never measure across a gap: continuity needs a shared session and at most the interval.
@Suite struct ContinuityTests {
  let calculator = RouteMileageCalculator()

  @Test func oneSessionDrivenSteadilyIsOneSegmentWithNoGaps() {
    var route = RouteBuilder()
    for _ in 0..<10 { route.drive(100, seconds: 10) }
    let distance = calculator.distance(of: route.samples)
    #expect(abs(distance.metres - 1000) < 1e-6)
    #expect(distance.segments == 1)
    #expect(distance.gaps == 0)
    #expect(distance.usablePositions == 11)
    #expect(distance.usesInferredContinuity == false)
    #expect(distance.isMeasured)
    #expect(!distance.isPartial)
  }

  @Test func aNewSessionIsAGapAndItsDistanceIsNeverCounted() {
    var route = RouteBuilder()
    route.drive(100)
    route.drive(100)
    route.session = CaptureSessionID("s2")
    route.drive(5_000)  // across the interruption: never counted
    route.drive(100)
    let distance = calculator.distance(of: route.samples)
    #expect(abs(distance.metres - 300) < 1e-6)
    #expect(distance.segments == 2)
    #expect(distance.gaps == 1)
    #expect(distance.isPartial)
  }

  @Test func silenceLongerThanTheIntervalIsAGapEvenInOneSession() {
    var route = RouteBuilder()
    route.drive(100, seconds: 120)  // exactly the interval: continuous
    route.drive(100, seconds: 120.5)  // beyond it: a gap
    route.drive(100, seconds: 1)
    let distance = calculator.distance(of: route.samples)
    #expect(abs(distance.metres - 200) < 1e-6)
    #expect(distance.segments == 2)
    #expect(distance.gaps == 1)
  }

  @Test func theIntervalIsASetting() {
    var route = RouteBuilder()
    route.drive(100, seconds: 60)
    route.drive(100, seconds: 60)
    #expect(RouteMileageCalculator(maximumSampleInterval: 30).distance(of: route.samples).gaps == 2)
    #expect(RouteMileageCalculator(maximumSampleInterval: 60).distance(of: route.samples).gaps == 0)
  }

  @Test func positionsOnEitherSideOfAGapWithNoNeighbourContributeNoSegment() {
    var route = RouteBuilder()
    route.session = CaptureSessionID("s2")
    route.drive(100)
    route.session = CaptureSessionID("s3")
    route.drive(100)
    let distance = calculator.distance(of: route.samples)
    #expect(distance.metres == 0)
    #expect(distance.segments == 0)
    #expect(distance.gaps == 2)
    #expect(distance.usablePositions == 3)
    #expect(!distance.isMeasured)
  }

  @Test func aTrackWithoutSessionsInfersContinuityAndIsAlwaysPartial() {
    var route = RouteBuilder(session: nil)
    for _ in 0..<5 { route.drive(200, seconds: 20) }
    let distance = calculator.distance(of: route.samples)
    #expect(abs(distance.metres - 1000) < 1e-6)
    #expect(distance.segments == 1)
    #expect(distance.gaps == 0)
    #expect(distance.usesInferredContinuity)
    #expect(distance.isPartial)
  }

  @Test func inferredContinuityStillBreaksOnTheInterval() {
    var route = RouteBuilder(session: nil)
    route.drive(200, seconds: 20)
    route.drive(200, seconds: 600)
    route.drive(200, seconds: 20)
    let distance = calculator.distance(of: route.samples)
    #expect(abs(distance.metres - 400) < 1e-6)
    #expect(distance.segments == 2)
    #expect(distance.gaps == 1)
  }

  @Test func aRecordedPositionNextToAnImportedOneIsNotContinuous() {
    var route = RouteBuilder(session: nil)
    route.drive(100)
    route.session = CaptureSessionID("s1")
    route.drive(100)
    route.drive(100)
    let distance = calculator.distance(of: route.samples)
    #expect(abs(distance.metres - 200) < 1e-6)
    #expect(distance.gaps == 1)
    #expect(distance.segments == 2)
    #expect(distance.usesInferredContinuity)
  }
}
