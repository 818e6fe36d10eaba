import FoundationEssentials
import OfficeCore

/// A message as a worker holds it between the broker and the commit: what arrived, when,
/// what the judge made of it, and what acknowledges it (the packet id on the connection it
/// came by; nil for QoS 0, which needs none).
public struct InboundMessage: Sendable {
  public var topic: String
  /// The payload, or its first 64 KiB when it was larger than the bound (`payloadSize`).
  public var payload: [UInt8]
  public var payloadSize: Int
  public var receivedAt: Date
  public var judgement: MessageJudge.Judgement
  public var packetID: UInt16?
  /// Which connection to the broker it came by: an acknowledgement goes back on that one
  /// only (after a reconnection the broker sends it again).
  public var connection: Int

  public init(
    topic: String, payload: [UInt8], payloadSize: Int, receivedAt: Date, judgement: MessageJudge.Judgement,
    packetID: UInt16?, connection: Int
  ) {
    self.topic = topic
    self.payload = payload
    self.payloadSize = payloadSize
    self.receivedAt = receivedAt
    self.judgement = judgement
    self.packetID = packetID
    self.connection = connection
  }

  /// The payload as text, for the JSON columns PostgreSQL reads out of it; only an accepted
  /// message's, which the judge read as UTF-8 JSON.
  var payloadText: String { String(decoding: payload, as: UTF8.self) }
}

/// What one committed batch did, for the counters, the status and the log.
public struct BatchOutcome: Sendable, Hashable {
  public var messages = 0
  /// Messages whose key the ledger already held: redeliveries, which changed nothing.
  public var duplicates = 0
  public var samples = 0
  /// Samples already stored (by vehicle, shift and time): a redelivery or a resend.
  public var duplicateSamples = 0
  public var rejected: [Rejection.Code: Int] = [:]
  /// The newest `queued_at` in the batch: its age at commit is the worker's lag.
  public var newestQueuedAt: Date?

  public init() {}

  public var rejectedCount: Int { rejected.values.reduce(0, +) }

  mutating func add(_ other: BatchOutcome) {
    messages += other.messages
    duplicates += other.duplicates
    samples += other.samples
    duplicateSamples += other.duplicateSamples
    rejected.merge(other.rejected, uniquingKeysWith: +)
    if let newest = other.newestQueuedAt { newestQueuedAt = max(newestQueuedAt ?? newest, newest) }
  }
}
