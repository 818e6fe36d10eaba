import Foundation
import GPSD
import TestSupport
import Testing

/// The libgps source against a real gpsd fed by gpsfake, and against a port nobody serves.
@Suite(.serialized, .requiresGPSFake) struct GPSDSourceTests {
  static let shortDrive = TestPaths.fixtures.appendingPathComponent("drives/short-drive.nmea")

  @Test func readsEveryFixOfADriveFromARealGPSD() throws {
    let fake = try GPSDFake(log: Self.shortDrive)
    defer { fake.stop() }
    let events = EventRecorder<GPSDSourceEvent>()
    let source = GPSDSource(endpoint: GPSDEndpoint(host: "127.0.0.1", port: fake.port)) {
      events.append($0)
    }
    source.start()
    defer { source.stop() }
    let ended = events.wait(timeout: 60) { recorded in
      recorded.contains {
        if case let .report(.device(device), _) = $0 { return device.activated == false }
        return false
      }
    }
    #expect(ended, "gpsfake's pass did not end: \(fake.log())")
    #expect(source.stop())
    let recorded = events.snapshot
    #expect(recorded.first == .connected(GPSDEndpoint(host: "127.0.0.1", port: fake.port)))
    guard case let .report(.version(version), _)? = recorded.dropFirst().first else {
      Issue.record("gpsd did not greet with VERSION: \(recorded.prefix(3))")
      return
    }
    // The gpsd this machine has: Debian 12's 3.22, Debian 13's 3.25 (scripts/targets/gpsd-test.sh).
    #expect(try version.release == InstalledGPSD.release())
    // Every second of the drive with a fix arrived, in order, stamped on the monotonic clock.
    var fixSeconds: [Int] = []
    var arrivals: [Double] = []
    for case let .report(.tpv(tpv), arrival) in recorded where tpv.hasPosition {
      if let time = tpv.time {
        let second = Int(time.timeIntervalSince1970)
        if fixSeconds.last != second { fixSeconds.append(second) }
      }
      arrivals.append(arrival)
    }
    let expected = try DriveFixture.named("short-drive")
    let firstFix = 1_717_228_800 + expected.warmUpSeconds  // 2024-06-01T08:01:00Z
    #expect(fixSeconds == Array(firstFix..<(firstFix + expected.fixes)))
    #expect(arrivals == arrivals.sorted())
    #expect(!recorded.contains { if case .disconnected = $0 { return true } else { return false } })
  }

  @Test func aRefusedConnectionBacksOffAndNeverSpins() throws {
    let port = try FreePort.find()
    let events = EventRecorder<GPSDSourceEvent>()
    let source = GPSDSource(
      endpoint: GPSDEndpoint(host: "127.0.0.1", port: port),
      backoff: ReconnectBackoff(initialDelay: 0.05, maximumDelay: 0.2, jitterFraction: 0)
    ) { events.append($0) }
    source.start()
    let retried = events.wait(timeout: 10) { recorded in
      recorded.filter { if case .retrying = $0 { return true } else { return false } }.count >= 5
    }
    #expect(source.stop())
    #expect(retried)
    let recorded = events.snapshot
    let delays = recorded.compactMap { event -> Double? in
      if case let .retrying(after) = event { return after }
      return nil
    }
    #expect(Array(delays.prefix(5)) == [0.05, 0.1, 0.2, 0.2, 0.2])
    // Each wait follows a report of why.
    guard case let .disconnected(reason)? = recorded.first else {
      Issue.record("expected a disconnection first, got \(String(describing: recorded.first))")
      return
    }
    #expect(reason.hasPrefix("cannot connect to gpsd at 127.0.0.1:\(port)"))
    #expect(!recorded.contains { if case .connected = $0 { return true } else { return false } })
  }

  @Test func reconnectsWhenGPSDComesBack() throws {
    let receiver = try GPSDPseudoReceiver(nmea: Self.shortDrive, secondsPerLine: 0.01)
    defer { receiver.stop() }
    let events = EventRecorder<GPSDSourceEvent>()
    let source = GPSDSource(
      endpoint: GPSDEndpoint(host: "127.0.0.1", port: receiver.port),
      backoff: ReconnectBackoff(initialDelay: 0.1, maximumDelay: 0.4, jitterFraction: 0.2)
    ) { events.append($0) }
    source.start()
    defer { source.stop() }
    // Nobody listens yet: the source keeps trying.
    #expect(events.wait(timeout: 10) { $0.contains { if case .retrying = $0 { return true } else { return false } } })
    try receiver.startGPSD()
    receiver.startFeeding()
    let versions = { (recorded: [GPSDSourceEvent]) -> Int in
      recorded.filter { if case .report(.version, _) = $0 { return true } else { return false } }.count
    }
    #expect(events.wait(timeout: 15) { versions($0) == 1 })
    #expect(
      events.wait(timeout: 15) { recorded in
        recorded.contains { if case let .report(.tpv(tpv), _) = $0 { return tpv.hasPosition } else { return false } }
      })
    receiver.killGPSD()
    #expect(
      events.wait(timeout: 10) { recorded in
        recorded.last.map { if case .retrying = $0 { return true } else { return false } } ?? false
      })
    try receiver.startGPSD()
    #expect(events.wait(timeout: 15) { versions($0) == 2 })
    #expect(source.stop())
    let connections = events.snapshot.filter { if case .connected = $0 { return true } else { return false } }
    #expect(connections.count == 2)
  }
}
