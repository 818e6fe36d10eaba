import DashPilotCore
import Foundation
import TestSupport
import Testing

/// The stretches and gaps with their times come from the same walk as the figure: the
/// counts never differ, and each gap is where and why the walk broke.
@Suite struct MeasuredRouteTests {
  let start = Date(timeIntervalSince1970: 1_700_000_000)

  @Test("a new session, a silence and a lone fix: each gap with its kind and times, stretches in order")
  func gapsWithTheirTimesAndKinds() {
    var route = RouteBuilder(time: start)
    route.drive(100, seconds: 10)  // s1: 0, 10
    route.session = CaptureSessionID("s2")
    route.drive(100, seconds: 420)  // s2 at 430: a new session
    route.drive(100, seconds: 5)  // 435
    route.drive(100, seconds: 200)  // 635: same session, beyond 120 s
    route.session = CaptureSessionID("s3")
    route.drive(100, seconds: 30)  // 665: a lone fix of s3
    route.session = CaptureSessionID("s4")
    route.drive(100, seconds: 30)  // 695
    route.drive(100, seconds: 1)  // 696
    let measured = RouteMileageCalculator().measure(route.samples)
    #expect(measured.distance == RouteMileageCalculator().distance(of: route.samples))
    #expect(measured.distance.segments == 3)
    #expect(measured.distance.gaps == 4)
    #expect(measured.stretches.map(\.samples.count) == [2, 2, 1, 1, 2])
    #expect(measured.stretches.map(\.contributes) == [true, true, false, false, true])
    #expect(
      measured.gaps == [
        RouteGap(
          kind: .sessionChanged(ended: CaptureSessionID("s1"), began: CaptureSessionID("s2")), from: start + 10,
          to: start + 430),
        RouteGap(kind: .noFixes, from: start + 435, to: start + 635),
        RouteGap(
          kind: .sessionChanged(ended: CaptureSessionID("s2"), began: CaptureSessionID("s3")), from: start + 635,
          to: start + 665),
        RouteGap(
          kind: .sessionChanged(ended: CaptureSessionID("s3"), began: CaptureSessionID("s4")), from: start + 665,
          to: start + 695),
      ])
    #expect(measured.gaps.map(\.seconds) == [420, 200, 30, 30])
    // Each gap joins the last position of one stretch to the first of the next.
    for (index, gap) in measured.gapsBetweenStretches.enumerated() {
      #expect(measured.stretches[index].to == gap.from)
      #expect(measured.stretches[index + 1].from == gap.to)
    }
  }

  @Test("a shift's uncovered start and end are its first and last gaps, between no positions")
  func windowEnds() {
    var route = RouteBuilder(time: start + 600)
    for _ in 0..<10 { route.drive(100, seconds: 10) }  // 600...700
    let shift = Shift(id: 1, startedAt: start, endedAt: start + 1000)
    let measured = shift.measuredRoute(of: route.samples)
    #expect(measured.distance == shift.recordedDistance(of: route.samples))
    #expect(measured.distance.gaps == 2)
    #expect(
      measured.gaps == [
        RouteGap(kind: .beforeCapture, from: start, to: start + 600),
        RouteGap(kind: .afterCapture, from: start + 700, to: start + 1000),
      ])
    #expect(measured.gapsBetweenStretches.isEmpty)
    #expect(measured.stretches.count == 1)
  }

  @Test("a parked vehicle's held samples continue the stretch: no gap, no distance")
  func heldSamplesAreNoGap() {
    var route = RouteBuilder(time: start)
    route.drive(100, seconds: 10)
    var samples = route.samples
    for minute in 1...30 {
      samples.append(
        RouteSample(
          timestamp: start + 10 + Double(minute) * 60, coordinate: route.position, horizontalAccuracy: 5,
          captureSessionID: CaptureSessionID("s1"), isHeld: true))
    }
    let measured = RouteMileageCalculator().measure(samples)
    #expect(measured.gaps.isEmpty)
    #expect(measured.stretches.map(\.samples.count) == [32])
    #expect(abs(measured.distance.metres - 100) < 1e-6)
  }

  @Test("no positions: no stretch and no gap, even with a window")
  func nothing() {
    let shift = Shift(id: 1, startedAt: start, endedAt: start + 1000)
    let measured = shift.measuredRoute(of: [RouteSample]())
    #expect(measured.stretches.isEmpty)
    #expect(measured.gaps.isEmpty)
    #expect(measured.distance == .empty)
  }

  @Test("the same walk on random routes: counts, and stretches joined by the gaps", arguments: 1...30)
  func randomRoutesAgree(seed: Int) {
    var generator = SeededGenerator(seed: UInt64(seed))
    let samples = AccumulatorPropertyTests.randomRoute(&generator)
    let window = DateInterval(start: start - 300, end: start + 50_000)
    let measured = RouteMileageCalculator().measure(samples, covering: window)
    #expect(measured.distance == RouteMileageCalculator().distance(of: samples, covering: window))
    #expect(measured.gaps.count == measured.distance.gaps)
    #expect(measured.stretches.filter(\.contributes).count == measured.distance.segments)
    #expect(measured.stretches.map(\.samples.count).reduce(0, +) == measured.distance.usablePositions)
    #expect(measured.gapsBetweenStretches.count == max(0, measured.stretches.count - 1))
  }
}
