import Capture
import DashPilotCore
import Foundation
import GPSD
import PlatformSupport
import Testing

/// Capture dating fixes that came with no date by their arrival (issue 28, class 4), as the
/// daemon hands it the clocks of the turn that read each report.
struct CaptureServiceArrivalDatingTests {
  static let wallAtZero = Date(timeIntervalSince1970: 1_796_217_000)
  static let origin = GeoCoordinate(latitude: 41.41, longitude: -81.87)

  /// A TPV `metres` east of the origin, with the receiver's `time` or none (GGA only).
  static func tpv(east metres: Double, time: Date? = nil) -> GPSDReport {
    let position = GeographicDistance.destination(from: origin, bearing: 90, distance: metres)
    return .tpv(
      GPSDTPV(
        mode: .threeDimensional, time: time, latitude: position.latitude, longitude: position.longitude, eph: 8,
        device: "/dev/ttyUSB0"))
  }

  /// Capture with `rule`, fed `reports` as (monotonic arrival, report); the clocks are read
  /// 0.05 s after each arrival, as a loop turn reads them after the socket.
  static func capture(
    _ rule: ArrivalDating, synchronised: Bool, _ reports: [(Double, GPSDReport)]
  ) throws -> (CaptureService, InMemorySampleSink, [CaptureEvent]) {
    var configuration = RouteSampleFilter.Configuration()
    configuration.dateByArrival = rule
    let sink = InMemorySampleSink()
    var service = CaptureService(sink: sink, filter: RouteSampleFilter(configuration: configuration)) {
      CaptureSessionID("s1")
    }
    try service.startCapture()
    var events: [CaptureEvent] = []
    for (arrival, report) in reports {
      let clock = ClockReading(
        wall: wallAtZero + arrival + 0.05, monotonic: arrival + 0.05, isWallClockSynchronised: synchronised)
      events += service.handle(.report(report, arrival: arrival), wallClock: clock)
    }
    events += service.stopCapture(reason: "test")
    return (service, sink, events)
  }

  /// Milliseconds after `wallAtZero`.
  static func milliseconds(_ date: Date) -> Int { Int((date.timeIntervalSince(wallAtZero) * 1000).rounded()) }

  /// Five GGA-only fixes 12 m apart, a second apart.
  static let ggaOnly: [(Double, GPSDReport)] = (0..<5).map { (Double($0), tpv(east: Double($0) * 12)) }

  @Test func undatedFixesAreDatedByTheirArrivalOnTheWallClock() throws {
    let (service, sink, _) = try Self.capture(.synchronised, synchronised: true, Self.ggaOnly)
    // Each at its arrival, not when the clocks were read after it.
    #expect(sink.samples.map(\.timestamp) == (0..<5).map { Self.wallAtZero + Double($0) })
    #expect(sink.samples.allSatisfy { $0.isDatedByArrival })
    #expect(service.statistics.accepted == 5)
    #expect(service.statistics.datedByArrival == 5)
    #expect(service.statistics.rejected.isEmpty)
    #expect(service.statistics.sessionsStarted == 1)
  }

  @Test func anUnsynchronisedClockRefusesThemAndCountsWhy() throws {
    let (service, sink, _) = try Self.capture(.synchronised, synchronised: false, Self.ggaOnly)
    #expect(sink.samples.isEmpty)
    #expect(service.statistics.rejected == [.invalidCoordinate: 5])
    #expect(service.statistics.undated == 5)
    #expect(service.statistics.datedByArrival == 0)
    let (always, alwaysSink, _) = try Self.capture(.always, synchronised: false, Self.ggaOnly)
    #expect(alwaysSink.samples.count == 5 && always.statistics.datedByArrival == 5)
    let (never, neverSink, _) = try Self.capture(.never, synchronised: true, Self.ggaOnly)
    #expect(neverSink.samples.isEmpty && never.statistics.undated == 5)
  }

  /// A receiver that sends some fixes with its time and some without, in one session.
  /// Dated fixes come first (the receiver had no date yet), then its RMC arrive: its own
  /// times follow (each 0.4 s before its arrival, the report's latency), and from then on
  /// an undated fix is refused rather than dated up to a second after the receiver's time.
  @Test func aSessionThatGetsTheReceiversTimeStopsDatingByArrival() throws {
    var reports = Array(Self.ggaOnly.prefix(3))
    for second in 3..<6 {
      let time = Self.wallAtZero + Double(second) - 0.4
      reports.append((Double(second), Self.tpv(east: Double(second) * 12, time: time)))
    }
    reports.append((6, Self.tpv(east: 72)))
    reports.append((7, Self.tpv(east: 84, time: Self.wallAtZero + 6.6)))
    let (service, sink, _) = try Self.capture(.synchronised, synchronised: true, reports)
    #expect(
      sink.samples.map { Self.milliseconds($0.timestamp) } == [0, 1000, 2000, 2600, 3600, 4600, 6600])
    #expect(sink.samples.map(\.isDatedByArrival) == [true, true, true, false, false, false, false])
    #expect(service.statistics.rejected == [.invalidCoordinate: 1])
    #expect(service.statistics.undated == 1)
    #expect(service.statistics.datedByArrival == 3)
  }

  /// A receiver whose time lags its arrival by more than a fix interval: its first timed
  /// fix precedes the last one dated by arrival and is refused as out of order; the next
  /// is kept. At most the fixes of one latency are lost at the switch.
  @Test func aReceiverTimeBehindTheLastArrivalIsOutOfOrderOnce() throws {
    var reports = Array(Self.ggaOnly.prefix(3))
    reports.append((3, Self.tpv(east: 36, time: Self.wallAtZero + 1.5)))
    reports.append((4, Self.tpv(east: 48, time: Self.wallAtZero + 2.5)))
    let (service, sink, _) = try Self.capture(.synchronised, synchronised: true, reports)
    #expect(sink.samples.map { Self.milliseconds($0.timestamp) } == [0, 1000, 2000, 2500])
    #expect(service.statistics.rejected == [.outOfOrder: 1])
  }
}
