import DashPilotCore
import Foundation
import Testing

/// A gap's words: its cause where capture recorded one, its length in time, never a
/// distance, and nothing RouteQuality would not say.
@Suite struct CaptureGapWordingTests {
  let s1 = CaptureSessionID("s1")
  let s2 = CaptureSessionID("s2")

  @Test("each kind of gap and each stored session end has its cause")
  func causes() {
    let changed = RouteGap.Kind.sessionChanged(ended: s1, began: s2)
    let cases: [(String?, String?, String?)] = [
      ("device_deactivated", "/dev/ttyACM0", "receiver /dev/ttyACM0 removed"),
      ("device_deactivated", nil, "receiver removed"),
      ("device_changed", "/dev/ttyUSB0", "receiver /dev/ttyUSB0 replaced"),
      ("connection_lost", nil, "gpsd connection lost"),
      ("new_gpsd", nil, "gpsd restarted"),
      ("capture_stopped", nil, "daemon stopped"),
      ("daemon restarted", nil, "daemon stopped unexpectedly"),
      ("save_failed", nil, "save failed"),
      ("power_cut", nil, nil),
      (nil, nil, nil),
    ]
    for (reason, device, expected) in cases {
      #expect(CaptureGapWording.cause(of: changed, endReason: reason, endDevice: device) == expected)
    }
    #expect(CaptureGapWording.cause(of: .noFixes, endReason: "connection_lost", endDevice: nil) == "no fixes")
    #expect(
      CaptureGapWording.cause(of: .beforeCapture, endReason: nil, endDevice: nil) == "shift started before capture")
    #expect(
      CaptureGapWording.cause(of: .afterCapture, endReason: nil, endDevice: nil)
        == "capture stopped before the shift ended")
  }

  @Test("a gap's length is a time: seconds under a minute, else the nearest minute")
  func durations() {
    let cases: [(TimeInterval, String)] = [
      (0, "0 s"), (45.4, "45 s"), (59.4, "59 s"), (59.5, "1 min"), (420, "7 min"), (449, "7 min"),
      (450, "8 min"), (3569, "59 min"), (3570, "1 h"), (4320, "1 h 12 min"), (10_800, "3 h"), (-5, "0 s"),
    ]
    for (seconds, text) in cases { #expect(CaptureGapWording.duration(seconds) == text, "\(seconds)") }
  }

  @Test("the line and the label, with and without a cause")
  func lines() {
    #expect(
      CaptureGapWording.line(from: "14:02", to: "14:09", seconds: 420, cause: "receiver /dev/ttyACM0 removed")
        == "gap 14:02–14:09 (7 min): receiver /dev/ttyACM0 removed")
    #expect(CaptureGapWording.line(from: "14:02", to: "14:09", seconds: 420, cause: nil) == "gap 14:02–14:09 (7 min)")
    #expect(
      CaptureGapWording.label(from: "14:02", to: "14:09", seconds: 420) == "not counted 14:02–14:09 (7 min)")
  }

  @Test("no distance, no percentage and no overclaiming word in any gap's words")
  func staysWithinTheVocabulary() throws {
    let codes = [
      "device_deactivated", "device_changed", "connection_lost", "new_gpsd", "capture_stopped",
      "daemon restarted", "save_failed",
    ]
    let kinds: [RouteGap.Kind] = [.noFixes, .beforeCapture, .afterCapture, .sessionChanged(ended: s1, began: s2)]
    var texts: [String] = []
    for kind in kinds {
      for code in codes {
        let cause = CaptureGapWording.cause(of: kind, endReason: code, endDevice: "/dev/ttyACM0")
        texts.append(CaptureGapWording.line(from: "08:00", to: "09:30", seconds: 5400, cause: cause))
      }
    }
    texts.append(CaptureGapWording.label(from: "08:00", to: "09:30", seconds: 5400))
    let distanceWord = try Regex(#"\b([0-9.]+ ?(m|km|mi)|metres?|miles?|kilometres?)\b"#)
    for text in texts.map({ $0.lowercased() }) {
      #expect(text.firstMatch(of: distanceWord) == nil, "\(text)")
      #expect(!text.contains("%"))
      for word in ["total", "complete", "tax", "deductible", "percent"] { #expect(!text.contains(word), "\(text)") }
    }
  }
}
