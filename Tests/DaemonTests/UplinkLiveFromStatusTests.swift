import ControlProtocol
import DashPilotCore
import Foundation
import Store
import Testing
import Uplink

@testable import Daemon

/// The uplink reads the open shift and guidance for its live message from the daemon's
/// status: what status shows of them is what the live message carried when the uplink read
/// the recording and guidance components themselves (the same figure, in the same unit,
/// worded the same way).
@Suite("the uplink's live message from the daemon's status")
struct UplinkLiveFromStatusTests {
  @Test func theOpenShiftInStatusIsTheLiveMessagesShift() {
    let shift = Shift(id: 7, startedAt: Date(timeIntervalSince1970: 1_700_000_000))
    let stored = StoredShift(shift: shift, maximumSampleInterval: 120, origin: .recorded)
    let distance = RouteDistance(
      metres: 19_956.3, segments: 3, gaps: 2, usablePositions: 812, usesInferredContinuity: false)
    for unit in DistanceUnit.allCases {
      let status = ShiftFigure(unit: unit).summary(of: stored, distance: distance, live: ShiftSummary.Live())
      #expect(
        LiveStatus.RunningShift(status) == LiveStatus.RunningShift(shift: shift, distance: distance, unit: unit))
    }
    let live = LiveStatus.RunningShift(ShiftFigure(unit: .kilometres).summary(of: stored, distance: distance))
    #expect(live.shiftID == 7 && live.startedAt == shift.startedAt)
    #expect(live.distance.value == 20.0 && live.distance.unit == "kilometres")
    #expect(live.summary == "20.0 km recorded · partial route")
  }

  @Test func guidanceInStatusIsTheLiveMessagesGuidance() {
    let following = GuidanceSection(
      mode: "driving", phase: "off_route", distanceRemainingMetres: 812.25, reroute: "rerouting")
    #expect(
      LiveStatus.Guidance(following) == LiveStatus.Guidance(phase: "off_route", distanceRemaining: 812.25))
    #expect(
      LiveStatus.Guidance(GuidanceSection(mode: "walking", phase: "waiting_for_fix"))
        == LiveStatus.Guidance(phase: "waiting_for_fix", distanceRemaining: nil))
  }
}
