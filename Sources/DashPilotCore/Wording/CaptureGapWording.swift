import FoundationEssentials

/// The words for one capture gap: its cause, its length and its line in `shift show` and
/// a report. A statement about capture, so it keeps `RouteQuality`'s rules: a gap has a
/// length in time and never a distance (nothing is known of what was driven meanwhile),
/// and no percentage of anything.
public enum CaptureGapWording {
  public static let shiftStartedBeforeCapture = "shift started before capture"
  public static let captureStoppedBeforeShiftEnded = "capture stopped before the shift ended"
  public static let noFixes = "no fixes"
  /// A time inside a private place (a driver's home): nothing recorded, nothing drawn.
  public static let privatePlace = "private place"
  /// What a report writes on the dashed line of a gap, before its times.
  public static let notCounted = "not counted"

  /// Why capture was lost, where capture recorded it. A session's end is read from what the
  /// store kept: the code capture wrote (`SessionEndReason.code`, or the daemon's own
  /// "daemon restarted" for sessions a stopped process left running) and the receiver it
  /// was reading. Nil where nothing was recorded (a session that never said how it ended,
  /// a track imported without sessions).
  public static func cause(of kind: RouteGap.Kind, endReason: String?, endDevice: String?) -> String? {
    switch kind {
    case .beforeCapture: return shiftStartedBeforeCapture
    case .afterCapture: return captureStoppedBeforeShiftEnded
    case .noFixes: return noFixes
    case .sessionChanged: return endReason.flatMap { sessionEnd(code: $0, device: endDevice) }
    }
  }

  /// The cause for a session's stored end, nil for a code capture does not write.
  public static func sessionEnd(code: String, device: String?) -> String? {
    switch code {
    case "connection_lost": "gpsd connection lost"
    case "new_gpsd": "gpsd restarted"
    case "device_deactivated": device.map { "receiver \($0) removed" } ?? "receiver removed"
    case "device_changed": device.map { "receiver \($0) replaced" } ?? "receiver replaced"
    // Capture stopped inside a shift: the daemon was stopping (a shift's own end is its last).
    case "capture_stopped": "daemon stopped"
    // Written at start-up for a session the previous process could not close.
    case "daemon restarted": "daemon stopped unexpectedly"
    case "save_failed": "save failed"
    // Nothing is recorded inside a private place (a driver's home).
    case "private_place": privatePlace
    default: nil
    }
  }

  /// "45 s", "7 min", "1 h 12 min", "3 h": to the second under a minute, else to the
  /// nearest minute.
  public static func duration(_ seconds: TimeInterval) -> String {
    guard seconds.isFinite else { return "–" }
    let value = max(0, seconds)
    if value < 59.5 { return "\(Int(value.rounded(.toNearestOrAwayFromZero))) s" }
    let minutes = Int((value / 60).rounded(.toNearestOrAwayFromZero))
    if minutes < 60 { return "\(minutes) min" }
    return minutes % 60 == 0 ? "\(minutes / 60) h" : "\(minutes / 60) h \(minutes % 60) min"
  }

  /// "gap 14:02–14:09 (7 min): receiver /dev/ttyACM0 removed", the clock times as the
  /// reader's clock shows them; without a cause where none was recorded.
  public static func line(from: String, to: String, seconds: TimeInterval, cause: String?) -> String {
    let head = "gap \(from)–\(to) (\(duration(seconds)))"
    return cause.map { "\(head): \($0)" } ?? head
  }

  /// "not counted 14:02–14:09 (7 min)": the label of a gap's dashed line in a report.
  public static func label(from: String, to: String, seconds: TimeInterval) -> String {
    "\(notCounted) \(from)–\(to) (\(duration(seconds)))"
  }
}
