import Capture
import DashPilotCore
import Testing

/// Every way capture ends a session is stored as a code and a receiver that a gap's cause
/// can read back: the wording and capture cannot drift apart.
@Suite struct SessionEndCauseTests {
  @Test("each session end, as stored, reads back as a gap's cause")
  func everyEndHasACause() {
    let cases: [(SessionEndReason, String)] = [
      (.connectionLost("connection refused"), "gpsd connection lost"),
      (.newGPSD(release: "3.22"), "gpsd restarted"),
      (.deviceDeactivated(path: "/dev/ttyACM0"), "receiver /dev/ttyACM0 removed"),
      (.deviceDeactivated(path: nil), "receiver removed"),
      (.deviceChanged(from: "/dev/ttyACM0", to: "/dev/ttyUSB0"), "receiver /dev/ttyACM0 replaced"),
      (.captureStopped("daemon stopping"), "daemon stopped"),
      (.saveFailed("disk I/O error"), "save failed"),
    ]
    for (reason, cause) in cases {
      #expect(CaptureGapWording.sessionEnd(code: reason.code, device: reason.device) == cause, "\(reason)")
    }
  }
}
