import Capture
import DashPilotCore
import Foundation
import Store
import TestSupport
import Testing
import Uplink

@testable import Daemon

/// The session messages the daemon queues, byte for byte: the store hook is told capture's
/// own reason and the shift the session captured into, for a start and for each way a
/// session ends (capture's end, a restart ending what a crash left running), and a session
/// begun by its first sample says so.
@Suite("uplink session messages carry capture's reason and the shift")
struct UplinkSessionMessageTests {
  static let queuedAt = Date(timeIntervalSince1970: 1_714_557_700)

  static func time(_ seconds: Int) -> Date { Date(timeIntervalSince1970: 1_714_557_600 + Double(seconds)) }

  static func sample(_ seconds: Int, session: String) -> RouteSample {
    RouteSample(
      timestamp: time(seconds), coordinate: GeoCoordinate(latitude: 51.5 + Double(seconds) * 0.0001, longitude: -0.12),
      horizontalAccuracy: 4, speed: 11, course: 0, captureSessionID: CaptureSessionID(session))
  }

  /// A store on a new file with the daemon's outbox observer installed, as the uplink
  /// component installs it.
  static func openStore(in directory: URL) throws -> SampleStore {
    let store = try SampleStore(path: directory.appendingPathComponent("dashpilot.sqlite").path, now: time(0))
    try store.install(Outbox.schema)
    let outbox = Outbox(encoder: UplinkEncoder(vehicleID: "van-7"), bound: 1000)
    store.commitObserver = OutboxCommitObserver(outbox: outbox, unit: .miles, clock: { queuedAt })
    return store
  }

  static func sessionPayloads(_ store: SampleStore) throws -> [String] {
    let outbox = Outbox(encoder: UplinkEncoder(vehicleID: "van-7"), bound: 1000)
    return try store.read { (transaction) throws(StoreError) in try outbox.peek(limit: 100, in: transaction) }
      .filter { $0.topic == .session }.map { String(decoding: $0.payload, as: UTF8.self) }
  }

  static func expected(sequence: Int, shift: String, session: String, event: String, at: String, reason: String)
    -> String
  {
    #"{"schema":"dashpilot.session/1","key":"van-7/\#(shift == "null" ? "-" : shift)/\#(sequence)","vehicle":"van-7","shift":\#(shift),"sequence":\#(sequence),"queued_at":"2024-05-01T10:01:40.000Z","capture_session":"\#(session)","event":"\#(event)","at":"\#(at)","reason":"\#(reason)"}"#
  }

  @Test("capture's start and end through StoreSampleSink: reason codes and the shift, exactly")
  func startAndEndThroughTheSink() throws {
    let directory = try TestPaths.temporaryDirectory("uplink-session-fields")
    defer { try? FileManager.default.removeItem(at: directory) }
    let store = try Self.openStore(in: directory)
    let shift = try store.startShift(at: Self.time(0))
    #expect(shift.id == 1)
    let sink = StoreSampleSink(batch: SampleBatch(store: store, shiftID: shift.id), now: { Self.time(30) })

    sink.captureSessionStarted(
      CaptureSessionID("cs-1"), reason: .fixesStarted(device: "/dev/ttyACM0"), at: Self.time(5))
    try sink.save(Self.sample(5, session: "cs-1"))
    try sink.save(Self.sample(6, session: "cs-1"))
    sink.captureSessionEnded(CaptureSessionID("cs-1"), reason: .connectionLost("end of stream"), at: Self.time(6))
    sink.captureSessionStarted(CaptureSessionID("cs-2"), reason: .fixesStarted(device: nil), at: Self.time(9))
    sink.captureSessionEnded(CaptureSessionID("cs-2"), reason: .captureStopped("shift ended"), at: Self.time(9))
    #expect(sink.lastError == nil)

    // 1 start, 2 samples (the end flushes them first), 3 end, 4 start, 5 end.
    #expect(
      try Self.sessionPayloads(store) == [
        Self.expected(
          sequence: 1, shift: "1", session: "cs-1", event: "start", at: "2024-05-01T10:00:05.000Z",
          reason: "fixes_started"),
        Self.expected(
          sequence: 3, shift: "1", session: "cs-1", event: "end", at: "2024-05-01T10:00:06.000Z",
          reason: "connection_lost"),
        Self.expected(
          sequence: 4, shift: "1", session: "cs-2", event: "start", at: "2024-05-01T10:00:09.000Z",
          reason: "fixes_started"),
        Self.expected(
          sequence: 5, shift: "1", session: "cs-2", event: "end", at: "2024-05-01T10:00:09.000Z",
          reason: "capture_stopped"),
      ])
    // The store keeps the end reason the message carries.
    #expect(try store.captureSessions().map(\.endReason) == ["connection_lost", "capture_stopped"])
  }

  @Test("a restart ends the running session in the open shift; a first sample begins one; no shift is null")
  func restartAndFirstSample() throws {
    let directory = try TestPaths.temporaryDirectory("uplink-session-restart")
    defer { try? FileManager.default.removeItem(at: directory) }
    let store = try Self.openStore(in: directory)
    // Outside any shift: shift null, key "-".
    try store.beginCaptureSession(CaptureSessionID("cs-0"), at: Self.time(1))
    try store.endCaptureSession(CaptureSessionID("cs-0"), at: Self.time(2), reason: "device_deactivated")
    let shift = try store.startShift(at: Self.time(3))
    #expect(shift.id == 1)
    try store.append([Self.sample(4, session: "cs-1")], toShift: shift.id)
    let ended = try store.endRunningCaptureSessions(at: Self.time(20), reason: "daemon restarted")
    #expect(ended == [CaptureSessionID("cs-1")])

    #expect(
      try Self.sessionPayloads(store) == [
        Self.expected(
          sequence: 1, shift: "null", session: "cs-0", event: "start", at: "2024-05-01T10:00:01.000Z",
          reason: "started"),
        Self.expected(
          sequence: 2, shift: "null", session: "cs-0", event: "end", at: "2024-05-01T10:00:02.000Z",
          reason: "device_deactivated"),
        Self.expected(
          sequence: 3, shift: "1", session: "cs-1", event: "start", at: "2024-05-01T10:00:04.000Z",
          reason: SampleStore.sessionBegunByFirstSample),
        Self.expected(
          sequence: 5, shift: "1", session: "cs-1", event: "end", at: "2024-05-01T10:00:20.000Z",
          reason: "daemon restarted"),
      ])
    #expect(SampleStore.sessionBegunByFirstSample == "first_sample")
  }
}
