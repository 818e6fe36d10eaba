import FoundationEssentials
import Store

/// How long the card lasts at the current rate of recording: the bytes a day the last
/// seven days added, from the history's figures (`HistoryFigures`: the rows of the shifts
/// that began in the window, at the file's bytes per row, which counts the indexes, the
/// sessions and what the uplink's outbox holds), and the room left (`StoreSpace`). Pure.
struct RecordingOutlook: Sendable, Hashable {
  /// The window the rate is taken over: a working week, so a weekend does not read as
  /// the end of recording.
  static let window: TimeInterval = 7 * 86_400
  /// The days-left figures the journal warns at, each once as the figure falls below it.
  static let warningDays: [Int] = [30, 14, 7, 3, 1]

  /// Bytes a day, or nil when the file holds no samples yet. A box that began recording
  /// within the window has its rate taken over the days since (at least one).
  static func bytesPerDay(_ figures: HistoryFigures, now: Date) -> Double? {
    guard figures.sampleRows > 0 else { return nil }
    let bytesPerRow = Double(figures.usedBytes) / Double(figures.sampleRows)
    var span = window
    if let first = figures.firstShiftStart {
      span = min(window, max(RetentionPolicy.day, now.timeIntervalSince(first)))
    }
    return Double(figures.recentSampleRows) * bytesPerRow / (span / RetentionPolicy.day)
  }

  /// Days of recording left in `available` bytes; nil when the rate is unknown or nothing
  /// was recorded in the window.
  static func daysLeft(available: Int64, bytesPerDay: Double?) -> Double? {
    guard let bytesPerDay, bytesPerDay > 0 else { return nil }
    return Double(max(0, available)) / bytesPerDay
  }

  /// The lowest warning figure `daysLeft` is below; nil when it is below none.
  static func warningLevel(daysLeft: Double?) -> Int? {
    guard let daysLeft else { return nil }
    return warningDays.last { daysLeft < Double($0) }
  }
}
