import FoundationEssentials
import OfficeCore

/// A worker's running figures: messages and samples a second over the last ten seconds,
/// and the refusals since the last log line, said at most once a second (a box sending
/// garbage must not fill the journal).
struct WorkerTally {
  private var window: [(time: Double, messages: Int, samples: Int)] = []
  static let span = 10.0
  private var throttle = LogThrottle(interval: 1)
  private var refused: [Rejection.Code: Int] = [:]
  private var lastRefusal: (topic: String, rejection: Rejection)?

  mutating func committed(_ outcome: BatchOutcome, now: Double) {
    window.append((now, outcome.messages, outcome.samples))
    window.removeAll { now - $0.time > Self.span }
  }

  func rates(now: Double) -> BatchWriter.WorkerRow {
    let recent = window.filter { now - $0.time <= Self.span }
    return BatchWriter.WorkerRow(
      messagesPerSecond: Double(recent.reduce(0) { $0 + $1.messages }) / Self.span,
      samplesPerSecond: Double(recent.reduce(0) { $0 + $1.samples }) / Self.span)
  }

  /// Notes the refusals of a committed batch; the line to log, when one is due.
  mutating func refusals(in batch: [InboundMessage], now: Double) -> String? {
    for message in batch {
      guard case .rejected(let rejection) = message.judgement else { continue }
      refused[rejection.code, default: 0] += 1
      lastRefusal = (message.topic, rejection)
    }
    guard let last = lastRefusal, throttle.admit(now: now).say else { return nil }
    let total = refused.values.reduce(0, +)
    let counts = refused.sorted { $0.key.rawValue < $1.key.rawValue }.map { "\($0.key.rawValue) \($0.value)" }
    refused = [:]
    lastRefusal = nil
    return "rejected \(total) \(total == 1 ? "message" : "messages") (\(counts.joined(separator: ", "))), "
      + "kept in the table rejected and acknowledged; the last, on \(last.topic): \(last.rejection.reason)"
  }
}
