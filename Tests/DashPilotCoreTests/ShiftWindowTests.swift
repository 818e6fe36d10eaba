import DashPilotCore
import Foundation
import TestSupport
import Testing

/// A completed shift's window exposes capture that started late or stopped early.
@Suite struct ShiftWindowTests {
  let start = Date(timeIntervalSince1970: 1_700_000_000)

  func route(startingAfter offset: TimeInterval) -> [RouteSample] {
    var route = RouteBuilder(time: start + offset)
    for _ in 0..<10 { route.drive(100, seconds: 10) }
    return route.samples  // spans 100 s
  }

  @Test func captureCoveringTheWholeShiftHasNoEndGaps() {
    // Capture starts exactly the interval after the shift and stops exactly the interval
    // before its end: neither end is more than the interval uncovered.
    let shift = Shift(id: 1, startedAt: start, endedAt: start + 120 + 100 + 120)
    let distance = shift.recordedDistance(of: route(startingAfter: 120))
    #expect(distance.gaps == 0)
    #expect(!distance.isPartial)
  }

  @Test func aLateStartIsAGap() {
    let shift = Shift(id: 1, startedAt: start, endedAt: start + 121 + 100)
    let distance = shift.recordedDistance(of: route(startingAfter: 121))
    #expect(distance.gaps == 1)
    #expect(distance.isPartial)
    #expect(abs(distance.metres - 1000) < 1e-6)
  }

  @Test func anEarlyStopIsAGap() {
    let shift = Shift(id: 1, startedAt: start, endedAt: start + 100 + 3600)
    let distance = shift.recordedDistance(of: route(startingAfter: 0))
    #expect(distance.gaps == 1)
    #expect(distance.isPartial)
  }

  @Test func bothEndsUncoveredAreTwoGaps() {
    let shift = Shift(id: 1, startedAt: start, endedAt: start + 3600)
    #expect(shift.recordedDistance(of: route(startingAfter: 600)).gaps == 2)
  }

  @Test func aRunningShiftHasNoWindowAndNoEndGaps() {
    let shift = Shift(id: 1, startedAt: start)
    #expect(shift.window == nil)
    #expect(shift.isRunning)
    let distance = shift.recordedDistance(of: route(startingAfter: 3600))
    #expect(distance.gaps == 0)
    #expect(!distance.isPartial)
  }
}
