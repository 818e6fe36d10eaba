import ControlProtocol
import DashPilotCore
import FoundationEssentials
import Store

/// A shift queued again for the office that missed part of it (`shift.resend`): its
/// samples, its stops and its shift message, as new messages (new sequences and keys) whose
/// content is what the box sends of them the first time (a sample the same sample by
/// vehicle, shift and time). Within `since`...`until` when given: the samples whose time
/// lies in it and the stops that overlap it; the shift message (once the shift has ended)
/// always. A stop still going on is not sent: it is when it ends. Pure: the caller reads
/// the rows and queues the messages.
public struct ShiftResend: Sendable, Hashable {
  /// Samples per message: a thousand is about 100 KB of JSON, a quarter of an hour of a 1 Hz
  /// receiver, well under any broker's limit.
  public static let samplesPerMessage = 1_000

  public var shiftID: Int64
  /// The whole shift (no range): its delivery record is counted afresh from it.
  public var isWhole: Bool
  /// The last sequence the outbox had given when the rows were read, in the same snapshot:
  /// a whole resend counts the shift from the next one, so a row committed after the read
  /// (a running shift's) is counted by its own message, and the first sending's by none.
  public var readAfterSequence: Int64
  /// In the order they are queued: the samples in row order, the stops, the shift message.
  public var messages: [UplinkMessage]
  public var sampleCount: Int
  public var stopCount: Int
  public var includesShift: Bool

  public init(
    shiftID: Int64, samples: [RouteSample], stops: [WireStop], report: ShiftReport?, since: Date? = nil,
    until: Date? = nil, readAfterSequence: Int64 = 0
  ) {
    self.shiftID = shiftID
    isWhole = since == nil && until == nil
    self.readAfterSequence = readAfterSequence
    func within(_ time: Date) -> Bool { (since.map { time >= $0 } ?? true) && (until.map { time <= $0 } ?? true) }
    let kept = samples.filter { within($0.timestamp) }
    let ended = stops.filter { stop in
      stop.end != "ongoing" && (since.map { stop.departure >= $0 } ?? true)
        && (until.map { stop.arrival <= $0 } ?? true)
    }
    var messages: [UplinkMessage] = stride(from: 0, to: kept.count, by: Self.samplesPerMessage).map { start in
      .samples(
        CommittedSamples(
          shiftID: shiftID, samples: Array(kept[start..<min(start + Self.samplesPerMessage, kept.count)]))
      )
    }
    messages += ended.map { .stop(StopReport(shiftID: shiftID, stop: $0)) }
    if let report { messages.append(.shift(report)) }
    self.messages = messages
    sampleCount = kept.count
    stopCount = ended.count
    includesShift = report != nil
  }
}

extension Outbox {
  /// Queues `resend.messages[range]` in `transaction` (a resend is queued a few messages a
  /// transaction, so that capture's commits go on between them). The first messages of a
  /// whole shift start its delivery record afresh; a part's never count in it. Returns what
  /// the bound dropped meanwhile, as one.
  public func enqueue(
    _ resend: ShiftResend, messages range: Range<Int>, queuedAt: Date, in transaction: StoreTransaction
  ) throws(StoreError) -> OutboxOverflow? {
    if resend.isWhole, range.lowerBound == 0 {
      try ShiftDelivery.resentWhole(resend.shiftID, countedFrom: resend.readAfterSequence + 1, in: transaction)
    }
    var dropped: OutboxOverflow?
    for message in resend.messages[range] {
      guard let overflow = try enqueue(message, queuedAt: queuedAt, counted: resend.isWhole, in: transaction) else {
        continue
      }
      dropped = dropped.map { $0.followed(by: overflow) } ?? overflow
    }
    return dropped
  }
}

extension OutboxOverflow {
  /// This drop and a later one, said as one.
  func followed(by later: OutboxOverflow) -> OutboxOverflow {
    OutboxOverflow(
      bound: later.bound, droppedEntries: droppedEntries + later.droppedEntries,
      droppedSamples: droppedSamples + later.droppedSamples, firstDroppedSequence: firstDroppedSequence,
      lastDroppedSequence: later.lastDroppedSequence, oldestDroppedQueuedAt: oldestDroppedQueuedAt)
  }
}
