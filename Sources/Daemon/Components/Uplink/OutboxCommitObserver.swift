import DashPilotCore
import FoundationEssentials
import Store
import Uplink

/// Queues the uplink's messages inside the store's own transactions: a sample batch, a
/// completed shift with its figure, a capture session starting or ending. An enqueue that
/// fails rolls the store's transaction back with it, so the fleet never hears of a row the
/// box did not keep, nor misses one it did. Store thread (the loop) only.
final class OutboxCommitObserver: StoreCommitObserver {
  let outbox: Outbox
  let unit: DistanceUnit
  private let clock: () -> Date
  /// Told after an enqueue: that the outbox changed (to wake the drain once the store's
  /// transaction has committed) and of any entries the bound dropped (to log them).
  var onEnqueue: (OutboxOverflow?) -> Void = { _ in }

  init(outbox: Outbox, unit: DistanceUnit, clock: @escaping () -> Date = Date.init) {
    self.outbox = outbox
    self.unit = unit
    self.clock = clock
  }

  func samplesStored(_ samples: [RouteSample], shiftID: Int64) throws(StoreError) {
    guard !samples.isEmpty else { return }
    try enqueue(.samples(Uplink.SampleBatch(shiftID: shiftID, samples: samples)))
  }

  func shiftCompleted(_ shift: Shift, distance: RouteDistance) throws(StoreError) {
    guard let report = ShiftReport(shift: shift, distance: distance, unit: unit) else { return }
    try enqueue(.shift(report))
  }

  func captureSessionBegan(
    _ id: CaptureSessionID, at startedAt: Date, shiftID: Int64?, reason: String
  ) throws(StoreError) {
    try enqueue(
      .session(SessionEvent(shiftID: shiftID, captureSession: id, phase: .start, at: startedAt, reason: reason)))
  }

  func captureSessionEnded(
    _ id: CaptureSessionID, at endedAt: Date, shiftID: Int64?, reason: String
  ) throws(StoreError) {
    try enqueue(.session(SessionEvent(shiftID: shiftID, captureSession: id, phase: .end, at: endedAt, reason: reason)))
  }

  private func enqueue(_ message: UplinkMessage) throws(StoreError) {
    do {
      let overflow = try outbox.enqueue(message, queuedAt: clock())
      onEnqueue(overflow)
    } catch {
      throw StoreError.sqlite(code: error.code, message: error.message, operation: "uplink outbox: \(error.operation)")
    }
  }
}
