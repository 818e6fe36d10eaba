import DashPilotCore
import Foundation
import TestSupport
import Testing

@testable import Store

@Suite struct CaptureSessionTests {
  @Test func aSessionBeginsAndEndsWithItsReason() throws {
    let file = try TemporaryStoreFile("sessions")
    let store = try file.open()
    let id = CaptureSessionID("9B1DEB4D")
    try store.beginCaptureSession(id, at: at(1_700_000_000))
    #expect(
      try store.captureSession(id)
        == StoredCaptureSession(
          id: id, startedAt: at(1_700_000_000), endedAt: nil, endReason: nil))
    #expect(throws: StoreError.captureSessionAlreadyBegun(id)) {
      try store.beginCaptureSession(id, at: at(1_700_000_001))
    }
    try store.endCaptureSession(id, at: at(1_700_000_300), reason: "gpsd connection lost")
    #expect(
      try store.captureSession(id)
        == StoredCaptureSession(
          id: id, startedAt: at(1_700_000_000), endedAt: at(1_700_000_300), endReason: "gpsd connection lost"))
    #expect(throws: StoreError.captureSessionAlreadyEnded(id)) {
      try store.endCaptureSession(id, at: at(1_700_000_400), reason: "again")
    }
    #expect(throws: StoreError.captureSessionNotFound(CaptureSessionID("nope"))) {
      try store.endCaptureSession(CaptureSessionID("nope"), at: at(1_700_000_400), reason: "x")
    }
  }

  @Test func aSampleFromASessionNeverBegunBeginsItAtTheSamplesTime() throws {
    let file = try TemporaryStoreFile("auto-session")
    let store = try file.open()
    let shift = try store.startShift(at: at(1_700_000_000))
    try store.append(
      straightRoute(count: 3, session: CaptureSessionID("late"), start: at(1_700_000_050)), toShift: shift.id)
    #expect(
      try store.captureSessions() == [
        StoredCaptureSession(id: CaptureSessionID("late"), startedAt: at(1_700_000_050), endedAt: nil, endReason: nil)
      ])
  }

  @Test func sessionsLeftRunningByACrashAreEndedOnStart() throws {
    let file = try TemporaryStoreFile("running")
    let store = try file.open()
    try store.beginCaptureSession(CaptureSessionID("a"), at: at(1_700_000_000))
    try store.beginCaptureSession(CaptureSessionID("b"), at: at(1_700_000_100))
    try store.endCaptureSession(CaptureSessionID("a"), at: at(1_700_000_050), reason: "device removed")
    let ended = try store.endRunningCaptureSessions(at: at(1_700_000_900), reason: "daemon restarted")
    #expect(ended == [CaptureSessionID("b")])
    #expect(try store.captureSessions().map(\.endReason) == ["device removed", "daemon restarted"])
    #expect(try store.captureSessions().map(\.endedAt) == [at(1_700_000_050), at(1_700_000_900)])
  }

  /// A gap's cause names the receiver that went: the session's end keeps it beside the code.
  @Test func aSessionEndKeepsTheReceiverItWasReading() throws {
    let file = try TemporaryStoreFile("end-device")
    let store = try file.open()
    try store.beginCaptureSession(CaptureSessionID("a"), at: at(1_700_000_000))
    try store.beginCaptureSession(CaptureSessionID("b"), at: at(1_700_000_100))
    try store.endCaptureSession(
      CaptureSessionID("a"), at: at(1_700_000_050), reason: "device_deactivated", device: "/dev/ttyACM0")
    try store.endCaptureSession(CaptureSessionID("b"), at: at(1_700_000_150), reason: "connection_lost")
    #expect(
      try store.captureSessions()
        == [
          StoredCaptureSession(
            id: CaptureSessionID("a"), startedAt: at(1_700_000_000), endedAt: at(1_700_000_050),
            endReason: "device_deactivated", endDevice: "/dev/ttyACM0"),
          StoredCaptureSession(
            id: CaptureSessionID("b"), startedAt: at(1_700_000_100), endedAt: at(1_700_000_150),
            endReason: "connection_lost", endDevice: nil),
        ])
  }

  @Test func textIsBoundSafely() throws {
    let file = try TemporaryStoreFile("text")
    let store = try file.open()
    // Built at run time so the bytes live in a temporary buffer when bound.
    let id = CaptureSessionID(String(repeating: "ü'; DROP TABLE samples; --", count: 3) + "\(Int.random(in: 0..<10))")
    try store.beginCaptureSession(id, at: at(1_700_000_000))
    #expect(try store.captureSessions().map(\.id) == [id])
    #expect(try store.database.textColumn("SELECT name FROM sqlite_master WHERE name = 'samples'") == ["samples"])
  }
}
