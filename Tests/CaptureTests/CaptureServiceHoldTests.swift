import Capture
import DashPilotCore
import Foundation
import GPSD
import Testing

/// A failed save with `holdsAfterSaveFailure` (the daemon's capture): one session ends,
/// and fixes are dropped and counted, never judged or saved, until the owner says the store
/// works again; then the next fix begins one new session. Without it (replay) the next fix
/// tries again at once, as before.
@Suite struct CaptureServiceHoldTests {
  typealias Fixture = CaptureServiceTests

  static func holdingService(_ sink: InMemorySampleSink) -> CaptureService {
    var counter = 0
    return CaptureService(sink: sink, holdsAfterSaveFailure: true) {
      counter += 1
      return CaptureSessionID("session-\(counter)")
    }
  }

  @Test func aFailedSaveHoldsCaptureUntilTheStoreRecovers() throws {
    let sink = InMemorySampleSink()
    var service = Self.holdingService(sink)
    try service.startCapture()
    _ = Fixture.feed(&service, [Fixture.version, Fixture.tpv(0), Fixture.tpv(1, north: 10)])
    sink.failSave = { _ in true }
    let failed = Fixture.feed(&service, [Fixture.tpv(2, north: 20)])
    #expect(
      failed == [
        .saveFailed("the sample could not be kept"),
        .sessionEnded(CaptureSessionID("session-1"), .saveFailed("the sample could not be kept")),
      ])
    #expect(service.storeFailure == "the sample could not be kept")

    // Held: ten fixes dropped, no session minted, the sink not asked to save any of them.
    var asked = 0
    sink.failSave = { _ in
      asked += 1
      return true
    }
    let held = Fixture.feed(&service, (3..<13).map { Fixture.tpv(Double($0), north: Double($0) * 10) })
    #expect(held == Array(repeating: .dropped("the sample could not be kept"), count: 10))
    #expect(asked == 0)
    #expect(service.session == nil)
    #expect(service.statistics.droppedWhileStoreFailing == 10)
    #expect(service.statistics.sessionsStarted == 1)
    #expect(service.statistics.saveFailures == 1)
    #expect(sink.sessions.map(\.id.rawValue) == ["session-1"])

    sink.failSave = { _ in false }
    service.storeRecovered()
    #expect(service.storeFailure == nil)
    let resumed = Fixture.feed(&service, [Fixture.tpv(13, north: 130), Fixture.tpv(14, north: 140)])
    #expect(resumed.first == .sessionStarted(CaptureSessionID("session-2"), .fixesStarted(device: "/dev/ttyUSB0")))
    #expect(service.session == CaptureSessionID("session-2"))
    #expect(sink.samples.map(\.timestamp) == [0, 1, 13, 14].map { sink.samples[0].timestamp.addingTimeInterval($0) })
    #expect(sink.sessions.map(\.id.rawValue) == ["session-1", "session-2"])
    #expect(RouteMileageCalculator().distance(of: sink.samples).gaps == 1)
  }

  @Test func stoppingCaptureEndsTheHold() throws {
    let sink = InMemorySampleSink()
    var service = Self.holdingService(sink)
    try service.startCapture()
    _ = Fixture.feed(&service, [Fixture.version, Fixture.tpv(0)])
    sink.failSave = { _ in true }
    _ = Fixture.feed(&service, [Fixture.tpv(1, north: 10)])
    #expect(service.storeFailure != nil)
    #expect(service.stopCapture(reason: "shift ended").isEmpty)
    #expect(service.storeFailure == nil)
  }

  @Test func withoutTheHoldTheNextFixTriesAgain() throws {
    let sink = InMemorySampleSink()
    var service = Fixture.service(sink)
    try service.startCapture()
    _ = Fixture.feed(&service, [Fixture.version, Fixture.tpv(0)])
    sink.failSave = { _ in true }
    _ = Fixture.feed(&service, [Fixture.tpv(1, north: 10)])
    #expect(service.storeFailure == nil)
    let again = Fixture.feed(&service, [Fixture.tpv(2, north: 20)])
    #expect(again.first == .sessionStarted(CaptureSessionID("session-2"), .fixesStarted(device: "/dev/ttyUSB0")))
    #expect(service.statistics.saveFailures == 2)
  }
}
