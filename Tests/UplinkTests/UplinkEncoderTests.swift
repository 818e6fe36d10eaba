import DashPilotCore
import Foundation
import Testing

@testable import Uplink

@Suite struct UplinkEncoderTests {
  let encoder = UplinkEncoder(vehicleID: "van-7")
  let t0 = Date(timeIntervalSince1970: 1_700_000_000)

  func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

  @Test func samplesBatchIsExactJSON() {
    let session = CaptureSessionID("cs-1")
    let samples = [
      RouteSample(
        timestamp: t0, coordinate: GeoCoordinate(latitude: 51.5, longitude: -0.12), horizontalAccuracy: 5,
        speed: 12.5, course: 90, captureSessionID: session),
      RouteSample(
        timestamp: t0 + 1.25, coordinate: GeoCoordinate(latitude: 51.50001, longitude: -0.11999),
        horizontalAccuracy: 7.25,
        captureSessionID: CaptureSessionID("cs-2")),
    ]
    let payload = encoder.encode(
      .samples(CommittedSamples(shiftID: 42, samples: samples)), sequence: 17, queuedAt: t0 + 2)
    #expect(
      text(payload)
        == #"{"schema":"dashpilot.samples/1","key":"van-7/42/17","vehicle":"van-7","shift":42,"sequence":17,"#
        + #""queued_at":"2023-11-14T22:13:22.000Z","capture_session":"cs-1","samples":["#
        + #"{"time":"2023-11-14T22:13:20.000Z","lat":51.5000000,"lon":-0.1200000,"accuracy":5.0,"speed":12.50,"course":90.0},"#
        + #"{"time":"2023-11-14T22:13:21.250Z","lat":51.5000100,"lon":-0.1199900,"accuracy":7.3,"capture_session":"cs-2"}]}"#
    )
  }

  @Test func aHeldSampleWithAnAssumedAccuracySaysBoth() {
    let sample = RouteSample(
      timestamp: t0, coordinate: GeoCoordinate(latitude: 51.5, longitude: -0.12), horizontalAccuracy: 25, speed: 0.3,
      captureSessionID: CaptureSessionID("cs-1"), isHeld: true, isAccuracyAssumed: true)
    let payload = encoder.encode(
      .samples(CommittedSamples(shiftID: 42, samples: [sample])), sequence: 3, queuedAt: t0 + 1)
    #expect(
      text(payload).hasSuffix(
        #""samples":[{"time":"2023-11-14T22:13:20.000Z","lat":51.5000000,"lon":-0.1200000,"accuracy":25.0,"speed":0.30,"held":true,"accuracy_assumed":true}]}"#
      ))
  }

  @Test func aSampleDatedByArrivalSaysSo() {
    let sample = RouteSample(
      timestamp: t0, coordinate: GeoCoordinate(latitude: 51.5, longitude: -0.12), horizontalAccuracy: 19,
      captureSessionID: CaptureSessionID("cs-1"), isDatedByArrival: true)
    let payload = encoder.encode(
      .samples(CommittedSamples(shiftID: 42, samples: [sample])), sequence: 4, queuedAt: t0 + 1)
    #expect(
      text(payload).hasSuffix(
        #""samples":[{"time":"2023-11-14T22:13:20.000Z","lat":51.5000000,"lon":-0.1200000,"accuracy":19.0,"dated_by_arrival":true}]}"#
      ))
  }

  @Test func shiftReportCarriesTheFigureAndItsWording() throws {
    let distance = RouteDistance(
      metres: 19_956.3, segments: 3, gaps: 2, usablePositions: 812, usesInferredContinuity: false)
    let shift = Shift(id: 42, startedAt: t0, endedAt: t0 + 3600)
    let report = try #require(ShiftReport(shift: shift, distance: distance, startedBy: .movement, endedBy: .stopped))
    #expect(
      Shift(id: 1, startedAt: t0).isRunning
        && ShiftReport(shift: Shift(id: 1, startedAt: t0), distance: distance) == nil)
    #expect(
      text(encoder.encode(.shift(report), sequence: 18, queuedAt: t0 + 3601))
        == #"{"schema":"dashpilot.shift/1","key":"van-7/42/18","vehicle":"van-7","shift":42,"sequence":18,"#
        + #""queued_at":"2023-11-14T23:13:21.000Z","started_at":"2023-11-14T22:13:20.000Z","ended_at":"2023-11-14T23:13:20.000Z","#
        + #""started_by":"movement","ended_by":"stopped","#
        + #""distance":{"gaps":2,"inferred_continuity":false,"measured":true,"metres":19956.3,"partial":true,"#
        + #""segments":3,"unit":"miles","usable_positions":812,"value":12.4},"summary":"12.4 mi recorded · partial route","jobs":[]}"#
    )
  }

  @Test func sessionEventOutsideAShiftHasADashInItsKey() {
    let event = SessionEvent(
      shiftID: nil, captureSession: CaptureSessionID("cs-9"), phase: .end, at: t0, reason: "gpsd_connection_lost")
    #expect(
      text(encoder.encode(.session(event), sequence: 3, queuedAt: t0))
        == #"{"schema":"dashpilot.session/1","key":"van-7/-/3","vehicle":"van-7","shift":null,"sequence":3,"#
        + #""queued_at":"2023-11-14T22:13:20.000Z","capture_session":"cs-9","event":"end","at":"2023-11-14T22:13:20.000Z","#
        + #""reason":"gpsd_connection_lost"}"#)
  }

  @Test func statusAndLive() {
    #expect(
      text(encoder.status(online: false, since: nil))
        == #"{"schema":"dashpilot.status/1","vehicle":"van-7","state":"offline"}"#)
    #expect(
      text(encoder.status(online: true, since: t0))
        == #"{"schema":"dashpilot.status/1","vehicle":"van-7","state":"online","since":"2023-11-14T22:13:20.000Z"}"#)
    let unmeasured = LiveStatus.RunningShift(shift: Shift(id: 5, startedAt: t0), distance: .empty)
    let position = RouteSample(
      timestamp: t0, coordinate: GeoCoordinate(latitude: -33.865, longitude: 151.2094), horizontalAccuracy: 3,
      speed: 0, captureSessionID: nil)
    #expect(
      text(
        encoder.live(
          LiveStatus(
            at: t0 + 0.5, position: position, shift: unmeasured,
            guidance: LiveStatus.Guidance(phase: "following", distanceRemaining: 549.94))))
        == #"{"schema":"dashpilot.live/1","vehicle":"van-7","at":"2023-11-14T22:13:20.500Z","#
        + #""position":{"time":"2023-11-14T22:13:20.000Z","lat":-33.8650000,"lon":151.2094000,"accuracy":3.0,"speed":0.00},"#
        + #""shift":{"id":5,"started_at":"2023-11-14T22:13:20.000Z","distance":{"gaps":0,"inferred_continuity":false,"#
        + #""measured":false,"metres":0,"partial":false,"segments":0,"unit":"miles","usable_positions":0,"value":null},"#
        + #""summary":"No distance measured: no usable position was recorded"},"#
        + #""guidance":{"phase":"following","distance_remaining_m":549.9}}"#)
    #expect(
      text(encoder.live(LiveStatus(at: t0, position: nil, shift: nil)))
        == #"{"schema":"dashpilot.live/1","vehicle":"van-7","at":"2023-11-14T22:13:20.000Z","position":null,"shift":null,"#
        + #""guidance":null}"#)
    #expect(
      text(
        encoder.live(
          LiveStatus(
            at: t0, position: nil, shift: nil,
            guidance: LiveStatus.Guidance(phase: "waiting_for_fix", distanceRemaining: nil))))
        == #"{"schema":"dashpilot.live/1","vehicle":"van-7","at":"2023-11-14T22:13:20.000Z","position":null,"shift":null,"#
        + #""guidance":{"phase":"waiting_for_fix","distance_remaining_m":null}}"#)
  }

  @Test func outsideInputNeverCrashesTheEncoder() {
    let wild = RouteSample(
      timestamp: Date(timeIntervalSince1970: .infinity), coordinate: GeoCoordinate(latitude: .nan, longitude: 1e300),
      horizontalAccuracy: -.infinity, captureSessionID: CaptureSessionID("a\"b\\c\n\u{01}"))
    #expect(
      text(encoder.encode(.samples(CommittedSamples(shiftID: 1, samples: [wild])), sequence: 1, queuedAt: t0))
        == #"{"schema":"dashpilot.samples/1","key":"van-7/1/1","vehicle":"van-7","shift":1,"sequence":1,"#
        + #""queued_at":"2023-11-14T22:13:20.000Z","capture_session":"a\"b\\c\n\u0001","samples":["#
        + #"{"time":null,"lat":null,"lon":null,"accuracy":null}]}"#)
  }
}
