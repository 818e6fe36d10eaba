import ControlProtocol
import DashPilotCore
import FoundationEssentials
import Store

/// Queues the uplink's messages inside the store's own transactions: a sample batch, a
/// completed shift with its figure, a capture session starting or ending. An enqueue that
/// fails rolls the store's transaction back with it, so the fleet never hears of a row the
/// box did not keep, nor misses one it did. The store's thread only.
public final class OutboxCommitObserver: StoreCommitObserver {
  public let outbox: Outbox
  public let unit: DistanceUnit
  private let clock: () -> Date
  /// Told after an enqueue: that the outbox changed (to wake the drain once the store's
  /// transaction has committed) and of any entries the bound dropped (to log them).
  public var onEnqueue: (OutboxOverflow?) -> Void = { _ in }

  /// `clock` stamps each message's `queued_at`.
  public init(outbox: Outbox, unit: DistanceUnit, clock: @escaping () -> Date = Date.init) {
    self.outbox = outbox
    self.unit = unit
    self.clock = clock
  }

  public func samplesStored(_ samples: [RouteSample], shiftID: Int64, in transaction: StoreTransaction)
    throws(StoreError)
  {
    guard !samples.isEmpty else { return }
    try enqueue(.samples(CommittedSamples(shiftID: shiftID, samples: samples)), in: transaction)
  }

  public func shiftCompleted(
    _ shift: StoredShift, distance: RouteDistance, sampleRows: Int, in transaction: StoreTransaction
  ) throws(StoreError) {
    guard
      var report = ShiftReport(
        shift: shift.shift, distance: distance, unit: unit, startedBy: shift.startedBy, endedBy: shift.endedBy)
    else { return }
    // The jobs visited in it, as told by now: those not reached are told after its end.
    report.jobs = try JobLedger().done(inShift: shift.id, in: transaction).filter { $0.state == .visited }
      .map(WireJob.init)
    try ShiftDelivery.shiftCompleted(shift.id, sampleRows: sampleRows, in: transaction)
    try enqueue(.shift(report), in: transaction)
  }

  public func captureSessionBegan(
    _ id: CaptureSessionID, at startedAt: Date, shiftID: Int64?, reason: String, in transaction: StoreTransaction
  ) throws(StoreError) {
    try enqueue(
      .session(SessionEvent(shiftID: shiftID, captureSession: id, phase: .start, at: startedAt, reason: reason)),
      in: transaction)
  }

  public func captureSessionEnded(
    _ id: CaptureSessionID, at endedAt: Date, shiftID: Int64?, reason: String, in transaction: StoreTransaction
  ) throws(StoreError) {
    try enqueue(
      .session(SessionEvent(shiftID: shiftID, captureSession: id, phase: .end, at: endedAt, reason: reason)),
      in: transaction)
  }

  private func enqueue(_ message: UplinkMessage, in transaction: StoreTransaction) throws(StoreError) {
    onEnqueue(try outbox.enqueue(message, queuedAt: clock(), in: transaction))
  }
}
