import Capture
import DashPilotCore
import Foundation
import GPSD
import TestSupport
import Testing

/// Capture from a real gpsd: gpsfake playing a generated drive into gpsd on a port of its
/// own, read by the libgps source, judged and grouped into sessions by `CaptureService`.
@Suite(.serialized, .requiresGPSFake) struct LiveCaptureTests {
  /// What the source reported, each event with the wall clock when it arrived.
  final class Recording: Sendable {
    let events = EventRecorder<TimedEvent>()
    struct TimedEvent: Sendable {
      var event: GPSDSourceEvent
      var wallClock: Date
    }

    func source(port: Int, backoff: ReconnectBackoff = ReconnectBackoff()) -> GPSDSource {
      let events = events
      return GPSDSource(endpoint: GPSDEndpoint(host: "127.0.0.1", port: port), backoff: backoff) {
        events.append(TimedEvent(event: $0, wallClock: Date()))
      }
    }

    /// Waits until gpsd says the receiver went away (gpsfake's single pass ended).
    func waitForDeviceRemoval(timeout: Double) -> Bool {
      events.wait(timeout: timeout) { recorded in
        recorded.contains {
          if case let .report(.device(device), _) = $0.event { return device.activated == false }
          return false
        }
      }
    }

    func count(_ matches: @escaping (GPSDSourceEvent) -> Bool) -> ([TimedEvent]) -> Int {
      { recorded in recorded.filter { matches($0.event) }.count }
    }

    /// Runs everything recorded through `service`, in order, as the daemon's state owner
    /// would. The box's wall clock is synchronised here, and the drive is from 2024: the
    /// age rule must see that the fixes are on another time base and not call them stale.
    func replay(into service: inout CaptureService) -> [CaptureEvent] {
      events.snapshot.flatMap { service.handle($0.event, synchronisedWallClock: $0.wallClock) }
    }
  }

  static func service(_ sink: InMemorySampleSink) throws -> CaptureService {
    var counter = 0
    var service = CaptureService(sink: sink) {
      counter += 1
      return CaptureSessionID("live-\(counter)")
    }
    try service.startCapture()
    return service
  }

  @Test func aDriveIsCapturedInOneSessionThatEndsWithThePass() throws {
    let drive = try DriveFixture.named("short-drive")
    let fake = try GPSDFake(log: drive.nmea)
    defer { fake.stop() }
    let recording = Recording()
    let source = recording.source(port: fake.port)
    source.start()
    defer { source.stop() }
    #expect(recording.waitForDeviceRemoval(timeout: 90), "the pass did not end: \(fake.log())")
    #expect(source.stop())

    let sink = InMemorySampleSink()
    var service = try Self.service(sink)
    let events = recording.replay(into: &service)
    // The same samples replay keeps from what this machine's gpsd makes of the drive (the
    // committed JSON is 3.22's; 3.25 dates its error estimates a cycle earlier).
    var replay = GPSDLogReplay()
    replay.feed(contents: Data(try InstalledGPSD.json(of: drive.nmea).utf8))
    let replayed = replay.finish()
    #expect(service.statistics.accepted == replayed.statistics.accepted)
    #expect(service.statistics.accepted == 76)
    // Fix for fix: same times, same positions, same error estimates.
    #expect(sink.samples.map(\.timestamp) == replayed.samples.map(\.timestamp))
    #expect(sink.samples.map(\.coordinate) == replayed.samples.map(\.coordinate))
    #expect(sink.samples.map(\.horizontalAccuracy) == replayed.samples.map(\.horizontalAccuracy))
    #expect(service.statistics.sessionsStarted == 1)
    #expect(service.statistics.rejected[.stale] == nil)
    // The receiver going away at the end of the pass ended the session.
    let ended = events.compactMap { event -> SessionEndReason? in
      if case let .sessionEnded(_, reason) = event { return reason }
      return nil
    }
    #expect(ended.count == 1)
    guard case let .deviceDeactivated(path?)? = ended.first else {
      Issue.record("the session did not end with the device: \(ended)")
      return
    }
    #expect(path.hasPrefix("/dev/pts/"))
    #expect(service.session == nil)
    let distance = RouteMileageCalculator().distance(of: sink.samples)
    #expect(distance.segments == 1 && distance.gaps == 0)
    #expect(abs(distance.metres - drive.metres) / drive.metres <= drive.toleranceFraction)
  }

  @Test func aReceiverThatNeverGetsAFixRecordsNothing() throws {
    let drive = try DriveFixture.named("never-fixes")
    let fake = try GPSDFake(log: drive.nmea)
    defer { fake.stop() }
    let recording = Recording()
    let source = recording.source(port: fake.port)
    source.start()
    defer { source.stop() }
    #expect(recording.waitForDeviceRemoval(timeout: 60), "the pass did not end: \(fake.log())")
    #expect(source.stop())
    let sink = InMemorySampleSink()
    var service = try Self.service(sink)
    let events = recording.replay(into: &service)
    #expect(sink.samples.isEmpty)
    #expect(service.statistics.sessionsStarted == 0)
    #expect(service.statistics.accepted == 0)
    #expect(service.statistics.received > 60)
    #expect(service.statistics.rejected.keys.sorted { $0.rawValue < $1.rawValue } == [.noFix])
    #expect(!events.contains { if case .sessionStarted = $0 { return true } else { return false } })
  }

  @Test func gpsdKilledAndRestartedMidDriveGivesASecondSessionAndAGap() throws {
    let drive = try DriveFixture.named("short-drive")
    let receiver = try GPSDPseudoReceiver(nmea: drive.nmea, secondsPerLine: 0.01)
    defer { receiver.stop() }
    try receiver.startGPSD()
    // gpspipe -w records what gpsd says, as a driver's log would: one run per gpsd.
    let logDirectory = try TestPaths.temporaryDirectory("restart-log")
    defer { try? FileManager.default.removeItem(at: logDirectory) }
    let log = logDirectory.appendingPathComponent("gpspipe.json")
    let gpspipe = { () throws -> GPSDChildProcess in
      try GPSDChildProcess(
        executable: "/usr/bin/gpspipe", arguments: ["-w", "127.0.0.1:\(receiver.port)"], outputPath: log.path)
    }
    let firstPipe = try gpspipe()
    defer { firstPipe.killGroup() }
    let recording = Recording()
    let source = recording.source(
      port: receiver.port, backoff: ReconnectBackoff(initialDelay: 0.1, maximumDelay: 1, jitterFraction: 0.2))
    source.start()
    defer { source.stop() }
    let versions = recording.count { if case .report(.version, _) = $0 { return true } else { return false } }
    let disconnections = recording.count { if case .disconnected = $0 { return true } else { return false } }
    #expect(recording.events.wait(timeout: 15) { versions($0) == 1 })
    receiver.startFeeding()
    #expect(receiver.waitForProgress(receiver.lineCount / 2, timeout: 60))
    receiver.killGPSD()
    #expect(recording.events.wait(timeout: 15) { disconnections($0) >= 1 })
    try receiver.startGPSD()
    let secondPipe = try gpspipe()
    defer { secondPipe.killGroup() }
    #expect(recording.events.wait(timeout: 15) { versions($0) == 2 })
    // The last fix of the drive reaches the restarted gpsd and us.
    let lastFix = Date(timeIntervalSince1970: 1_717_228_800 + Double(drive.durationSeconds - 1))
    let complete = recording.events.wait(timeout: 60) { recorded in
      recorded.contains {
        if case let .report(.tpv(tpv), _) = $0.event { return tpv.time == lastFix }
        return false
      }
    }
    #expect(complete)
    #expect(source.stop())

    let sink = InMemorySampleSink()
    var service = try Self.service(sink)
    let events = recording.replay(into: &service)
    let ended = events.compactMap { event -> SessionEndReason? in
      if case let .sessionEnded(_, reason) = event { return reason }
      return nil
    }
    #expect(service.statistics.sessionsStarted == 2)
    #expect(ended.count == 1)
    #expect(ended.first.map { if case .connectionLost = $0 { return true } else { return false } } == true)
    #expect(Set(sink.samples.compactMap(\.captureSessionID?.rawValue)) == ["live-1", "live-2"])
    // Measured, the restart is a gap: two stretches, a partial route, less than driven.
    let distance = RouteMileageCalculator().distance(of: sink.samples)
    #expect(distance.segments == 2)
    #expect(distance.gaps == 1)
    #expect(distance.isPartial)
    #expect(distance.metres < drive.metres)
    #expect(distance.metres > drive.metres * 0.5)

    // Replayed, the recorded log shows the same gap: two gpsd runs, two sessions.
    secondPipe.killGroup()
    firstPipe.killGroup()
    let replayed = try GPSDLogReplay.replay(contentsOf: log)
    #expect(replayed.captureSessions == 2)
    #expect(replayed.distance.segments == 2)
    #expect(replayed.distance.gaps == 1)
    #expect(replayed.distance.isPartial)
    #expect(replayed.distance.metres < drive.metres)
  }
}
