import FoundationEssentials

/// The words for one stop: its line in `shift show` and `replay --stops`, and its spoken
/// form. A stop is standing still with the receiver reporting, nothing more: "stopped",
/// never "idling" (there is no ignition input), and an end the rows did not see is said
/// as what cut it, so a duration is never passed off as the whole stay.
public enum StopWording {
  /// "still stopped when the shift ended", or nil for a stop both of whose ends were seen.
  public static func cut(_ stop: Stop) -> String? {
    var notes: [String] = []
    switch stop.start {
    case .arrived: break
    case .shiftStarted: notes.append("already stopped when the shift started")
    case .afterGap: notes.append("already stopped when capture resumed")
    case .recordingBegan: notes.append("already stopped when the recording began")
    }
    switch stop.end {
    case .departed: break
    case .shiftEnded: notes.append("still stopped when the shift ended")
    case .beforeGap: notes.append("capture lost while stopped")
    case .recordingEnded: notes.append("still stopped when the recording ended")
    case .ongoing: notes.append("stopped now")
    }
    return notes.isEmpty ? nil : notes.joined(separator: ", ")
  }

  /// "7 min", "4 min · still stopped when the shift ended": a stop's duration and what cut
  /// it, as an exported waypoint describes it.
  public static func duration(_ seconds: TimeInterval, cut: String?) -> String {
    CaptureGapWording.duration(seconds) + (cut.map { " · \($0)" } ?? "")
  }

  /// "stop 3 10:02–10:09 (7 min) at Depot · still stopped when the shift ended": the clock
  /// times as the reader's clock shows them, the place when the stop lies in one.
  public static func line(number: Int, from: String, to: String, stop: Stop, place: String?) -> String {
    line(number: number, from: from, to: to, duration: stop.duration, cut: cut(stop), place: place)
  }

  /// The same line from a stop's parts as the socket carries them (`shift show`): its
  /// duration and `cut`'s words.
  public static func line(
    number: Int, from: String, to: String, duration: TimeInterval, cut: String?, place: String?
  ) -> String {
    var line = "stop \(number) \(from)–\(to) (\(CaptureGapWording.duration(duration)))"
    if let place { line += " at \(place)" }
    if let cut { line += " · \(cut)" }
    return line
  }

  /// "Stop 3, at 10:02, 7 minutes at Depot. Still stopped when the shift ended."
  public static func spoken(number: Int, from: String, stop: Stop, place: String?) -> String {
    var sentence = "Stop \(number), at \(from), \(spokenDuration(stop.duration))"
    if let place { sentence += " at \(place)" }
    sentence += "."
    if let cut = cut(stop) { sentence += " \(cut.prefix(1).uppercased())\(cut.dropFirst())." }
    return sentence
  }

  /// "12 stops of 2 min or more", "No stops of 2 min or more".
  public static func count(_ stops: Int, minimumStop: TimeInterval) -> String {
    let minimum = setting(minimumStop)
    switch stops {
    case 0: return "No stops of \(minimum) or more"
    case 1: return "1 stop of \(minimum) or more"
    default: return "\(stops) stops of \(minimum) or more"
    }
  }

  /// The minimum stop as it was set, never rounded: "2 min", "90 s", "1 h 30 min".
  public static func setting(_ seconds: TimeInterval) -> String {
    guard seconds.isFinite, seconds >= 0 else { return "–" }
    let isWholeSeconds = seconds == seconds.rounded()
    if isWholeSeconds, seconds >= 60, Int(seconds) % 60 == 0 { return DurationText.spoken(seconds) }
    return "\(FixedDecimal.text(seconds, digits: isWholeSeconds ? 0 : 1) ?? "–") s"
  }

  /// "7 minutes", "1 hour 12 minutes", "45 seconds": `CaptureGapWording.duration` spelled out.
  public static func spokenDuration(_ seconds: TimeInterval) -> String {
    func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }
    guard seconds.isFinite else { return "an unknown time" }
    let value = max(0, seconds)
    if value < 59.5 { return count(Int(value.rounded(.toNearestOrAwayFromZero)), "second") }
    let minutes = Int((value / 60).rounded(.toNearestOrAwayFromZero))
    if minutes < 60 { return count(minutes, "minute") }
    let hours = count(minutes / 60, "hour")
    return minutes % 60 == 0 ? hours : "\(hours) \(count(minutes % 60, "minute"))"
  }
}
