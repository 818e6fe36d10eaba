import Capture
import DashPilotCore
import Foundation
import GPSD
import Testing

/// Capture sessions: minted when fixes start flowing, cleared for each reason they stop.
struct CaptureServiceTests {
  static let epoch = 1_714_557_600.0
  static let origin = GeoCoordinate(latitude: 51.5, longitude: -0.12)

  /// A TPV `metres` north of the origin at `second`.
  static func tpv(
    _ second: Double, north metres: Double = 0, mode: FixCandidate.Mode = .threeDimensional,
    eph: Double = 8, speed: Double = 10, device: String? = "/dev/ttyUSB0"
  ) -> GPSDReport {
    let position = GeographicDistance.destination(from: origin, bearing: 0, distance: metres)
    return .tpv(
      GPSDTPV(
        mode: mode, time: Date(timeIntervalSince1970: epoch + second),
        latitude: mode.hasFix ? position.latitude : nil, longitude: mode.hasFix ? position.longitude : nil,
        eph: mode.hasFix ? eph : nil, speed: speed, track: 0, device: device))
  }

  static let version = GPSDReport.version(GPSDVersion(release: "3.22", protocolMajor: 3, protocolMinor: 14))

  static func service(_ sink: InMemorySampleSink) -> CaptureService {
    var counter = 0
    return CaptureService(sink: sink) {
      counter += 1
      return CaptureSessionID("session-\(counter)")
    }
  }

  /// Feeds `reports` one second apart on the monotonic clock, as if they arrived on time,
  /// each a whole instant: its verdict is asked for at once (`judgePendingInstant`) rather
  /// than when the next report shows the instant complete (see `FixInstantTests`).
  static func feed(_ service: inout CaptureService, _ reports: [GPSDReport]) -> [CaptureEvent] {
    var events: [CaptureEvent] = []
    for report in reports {
      var arrival = 1000.0
      if case let .tpv(tpv) = report, let time = tpv.time { arrival = time.timeIntervalSince1970 - epoch + 1000 }
      events += service.receive(report, arrival: arrival)
      events += service.judgePendingInstant()
    }
    return events
  }

  @Test func mintsASessionWhenFixesStartFlowing() throws {
    let sink = InMemorySampleSink()
    var service = Self.service(sink)
    try service.startCapture()
    let events = Self.feed(
      &service,
      [
        Self.version, .device(GPSDDevice(path: "/dev/ttyUSB0", activated: true)),
        Self.tpv(0, mode: .noFix), Self.tpv(1, mode: .noFix), Self.tpv(2), Self.tpv(3, north: 10),
      ])
    let id = CaptureSessionID("session-1")
    #expect(events.count == 5)
    #expect(events[0] == .rejected(.noFix))
    #expect(events[1] == .rejected(.noFix))
    #expect(events[2] == .sessionStarted(id, .fixesStarted(device: "/dev/ttyUSB0")))
    guard case let .accepted(first) = events[3], case let .accepted(second) = events[4] else {
      Issue.record("expected two accepted samples: \(events)")
      return
    }
    #expect(first.captureSessionID == id && second.captureSessionID == id)
    #expect(sink.samples == [first, second])
    #expect(service.session == id)
    #expect(service.statistics.received == 4)
    #expect(service.statistics.accepted == 2)
    #expect(service.statistics.rejected == [.noFix: 2])
    #expect(sink.sessions.map(\.id) == [id])
  }

  @Test func nothingIsCapturedOutsideAShift() {
    let sink = InMemorySampleSink()
    var service = Self.service(sink)
    let events = Self.feed(&service, [Self.version, Self.tpv(0), Self.tpv(1, north: 20)])
    #expect(events.isEmpty)
    #expect(service.session == nil)
    #expect(service.statistics == CaptureStatistics())
    #expect(sink.samples.isEmpty)
  }

  @Test func aLostConnectionEndsTheSessionAndTheNextFixStartsAnother() throws {
    let sink = InMemorySampleSink()
    var service = Self.service(sink)
    try service.startCapture()
    _ = Self.feed(&service, [Self.version, Self.tpv(0), Self.tpv(1, north: 10)])
    let lost = service.handle(.disconnected(reason: "gpsd closed the connection"))
    #expect(lost == [.sessionEnded(CaptureSessionID("session-1"), .connectionLost("gpsd closed the connection"))])
    #expect(service.session == nil)
    let resumed = Self.feed(&service, [Self.version, Self.tpv(5, north: 50), Self.tpv(6, north: 60)])
    #expect(resumed.first == .sessionStarted(CaptureSessionID("session-2"), .fixesStarted(device: "/dev/ttyUSB0")))
    #expect(sink.samples.map(\.captureSessionID?.rawValue) == ["session-1", "session-1", "session-2", "session-2"])
    // The measurement sees the interruption.
    let distance = RouteMileageCalculator().distance(of: sink.samples)
    #expect(distance.gaps == 1)
    #expect(distance.segments == 2)
    #expect(abs(distance.metres - 20) < 1e-6)
    #expect(sink.sessions.map(\.end) == [.connectionLost("gpsd closed the connection"), nil])
    // On the receiver's clock: from the first fix to the last fix with a position.
    #expect(sink.sessions[0].startedAt == Date(timeIntervalSince1970: Self.epoch))
    #expect(sink.sessions[0].endedAt == Date(timeIntervalSince1970: Self.epoch + 1))
    #expect(sink.sessions[1].startedAt == Date(timeIntervalSince1970: Self.epoch + 5))
    #expect(sink.sessions[1].endedAt == nil)
  }

  @Test func aNewGPSDEndsTheSession() throws {
    let sink = InMemorySampleSink()
    var service = Self.service(sink)
    try service.startCapture()
    _ = Self.feed(&service, [Self.version, Self.tpv(0)])
    let events = Self.feed(&service, [.version(GPSDVersion(release: "3.25", protocolMajor: 3, protocolMinor: 15))])
    #expect(events == [.sessionEnded(CaptureSessionID("session-1"), .newGPSD(release: "3.25"))])
  }

  @Test func aDeactivatedDeviceEndsTheSessionButAnotherDevicesRemovalDoesNot() throws {
    let sink = InMemorySampleSink()
    var service = Self.service(sink)
    try service.startCapture()
    _ = Self.feed(&service, [Self.version, .device(GPSDDevice(path: "/dev/ttyUSB0", activated: true)), Self.tpv(0)])
    #expect(Self.feed(&service, [.device(GPSDDevice(path: "/dev/ttyACM0", activated: false))]).isEmpty)
    #expect(service.session == CaptureSessionID("session-1"))
    let events = Self.feed(&service, [.device(GPSDDevice(path: "/dev/ttyUSB0", activated: false))])
    #expect(events == [.sessionEnded(CaptureSessionID("session-1"), .deviceDeactivated(path: "/dev/ttyUSB0"))])
    #expect(service.devicePath == nil)
  }

  @Test func aChangedDevicePathEndsTheSession() throws {
    let sink = InMemorySampleSink()
    var service = Self.service(sink)
    try service.startCapture()
    _ = Self.feed(&service, [Self.version, Self.tpv(0)])
    // The fixes themselves say they now come from another receiver.
    let events = Self.feed(&service, [Self.tpv(1, north: 30, device: "/dev/ttyUSB1")])
    #expect(
      events.prefix(2) == [
        .sessionEnded(CaptureSessionID("session-1"), .deviceChanged(from: "/dev/ttyUSB0", to: "/dev/ttyUSB1")),
        .sessionStarted(CaptureSessionID("session-2"), .fixesStarted(device: "/dev/ttyUSB1")),
      ])
    // And a DEVICE report for another path does too.
    let switched = Self.feed(&service, [.device(GPSDDevice(path: "/dev/ttyS0", activated: true))])
    #expect(
      switched == [.sessionEnded(CaptureSessionID("session-2"), .deviceChanged(from: "/dev/ttyUSB1", to: "/dev/ttyS0"))]
    )
  }

  @Test func stoppingCaptureEndsTheSessionAndIgnoresFixes() throws {
    let sink = InMemorySampleSink()
    var service = Self.service(sink)
    try service.startCapture()
    _ = Self.feed(&service, [Self.version, Self.tpv(0)])
    #expect(
      service.stopCapture(reason: "shift ended") == [
        .sessionEnded(CaptureSessionID("session-1"), .captureStopped("shift ended"))
      ])
    #expect(Self.feed(&service, [Self.tpv(1, north: 40)]).isEmpty)
    #expect(sink.samples.count == 1)
    #expect(service.stopCapture(reason: "daemon stopping").isEmpty)
  }

  @Test func aSampleThatCouldNotBeSavedEndsTheSession() throws {
    let sink = InMemorySampleSink()
    var service = Self.service(sink)
    try service.startCapture()
    _ = Self.feed(&service, [Self.version, Self.tpv(0), Self.tpv(1, north: 10)])
    sink.failSave = { _ in true }
    let failed = Self.feed(&service, [Self.tpv(2, north: 20)])
    #expect(
      failed == [
        .saveFailed("the sample could not be kept"),
        .sessionEnded(CaptureSessionID("session-1"), .saveFailed("the sample could not be kept")),
      ])
    #expect(service.statistics.saveFailures == 1)
    // The filter judges from what was really kept (north 10 at 1 s), in a new session.
    #expect(service.filter.lastRetained == sink.samples.last)
    sink.failSave = { _ in false }
    let resumed = Self.feed(&service, [Self.tpv(3, north: 30)])
    #expect(resumed.first == .sessionStarted(CaptureSessionID("session-2"), .fixesStarted(device: "/dev/ttyUSB0")))
    #expect(sink.samples.count == 3)
    #expect(RouteMileageCalculator().distance(of: sink.samples).gaps == 1)
  }

  @Test func aBatchFlushThatFailsLaterEndsTheSessionToo() throws {
    let sink = InMemorySampleSink()
    var service = Self.service(sink)
    try service.startCapture()
    _ = Self.feed(&service, [Self.version, Self.tpv(0), Self.tpv(1, north: 10)])
    let events = service.saveFailed(reason: "disk full")
    #expect(
      events == [.saveFailed("disk full"), .sessionEnded(CaptureSessionID("session-1"), .saveFailed("disk full"))])
    #expect(service.statistics.saveFailures == 1)
    #expect(sink.sessions.first?.end == .saveFailed("disk full"))
    #expect(sink.sessions.first?.endedAt == Date(timeIntervalSince1970: Self.epoch + 1))
    // With no session open, it is still counted, and ends nothing.
    #expect(service.saveFailed(reason: "disk full") == [.saveFailed("disk full")])
  }

  @Test func startingAShiftJudgesFromTheStoredLastSample() throws {
    let stored = RouteSample(
      timestamp: Date(timeIntervalSince1970: Self.epoch + 100), coordinate: Self.origin,
      horizontalAccuracy: 5, captureSessionID: CaptureSessionID("earlier"))
    let sink = InMemorySampleSink(samples: [stored])
    var service = Self.service(sink)
    try service.startCapture()
    let events = Self.feed(&service, [Self.tpv(50, north: 100), Self.tpv(101, north: 100)])
    #expect(events.count == 3)
    #expect(events[1] == .rejected(.outOfOrder))
    #expect(service.statistics.accepted == 1)
  }

  @Test func aFixThatArrivesLateIsStale() throws {
    let sink = InMemorySampleSink()
    var service = Self.service(sink)
    try service.startCapture()
    _ = service.receive(Self.tpv(0), arrival: 500)
    _ = service.receive(Self.tpv(1, north: 10), arrival: 501)
    _ = service.judgePendingInstant()
    // Fix time 2 s arriving at 514: 12 s late. Its age is judged on arrival, its verdict
    // comes when the next instant's report shows it complete.
    #expect(service.receive(Self.tpv(2, north: 20), arrival: 514).isEmpty)
    #expect(service.receive(Self.tpv(15, north: 30), arrival: 515) == [.rejected(.stale)])
    #expect(service.judgePendingInstant().count == 1)
    #expect(service.statistics.rejected == [.stale: 1])
    #expect(service.statistics.accepted == 3)
  }
}
