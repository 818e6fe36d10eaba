import FoundationEssentials
import OfficeCore
import PlatformSupport

/// Storing a batch: judged, written in one transaction, then acknowledged. What PostgreSQL
/// cannot take now (it is down, restarting, its disk full) is held, unacknowledged, and
/// tried again until it can; what it refuses for the rows themselves is found a message at
/// a time and kept in `rejected`, so no message is ever looped on.
extension IngestWorker {
  func store(_ arrivals: [Inbox.Arrival], stopping: Bool = false) {
    let batch = arrivals.map { arrival in
      let publish = arrival.publish
      return InboundMessage(
        topic: publish.topic, payload: publish.payload, payloadSize: publish.payloadSize,
        receivedAt: arrival.receivedAt,
        judgement: arrival.judgement,
        packetID: publish.qos > 0 ? publish.packetID : nil, connection: arrival.connection)
    }
    guard let (outcome, written) = commit(batch, stopping: stopping) else { return }
    acknowledge(written)
    let now = MonotonicClock.now()
    tally.committed(outcome, now: now)
    lastHeartbeat = now
    if let line = tally.refusals(in: written, now: now) { log.warning(line) }
  }

  /// The batch committed (with, when PostgreSQL refused some rows, those messages turned
  /// into rejections); nil when the worker stops before it could be.
  private func commit(_ batch: [InboundMessage], stopping: Bool) -> (BatchOutcome, [InboundMessage])? {
    var batch = batch
    while true {
      guard let writer else {
        if stopping || stop.isSet { return nil }
        _ = connectDatabase()
        continue
      }
      do {
        let outcome = try writer.write(batch, workerRow: tally.rates(now: MonotonicClock.now()))
        if lastError != nil {
          log.notice("storing again: \(batch.count) messages held meanwhile are committed")
          lastError = nil
        }
        return (outcome, batch)
      } catch let error {
        if error.isServerUnavailable {
          self.writer = nil
          failed("PostgreSQL is unavailable (\(error)); holding \(batch.count) messages unacknowledged")
        } else if error.isResourceShortage || error.isTransient {
          failed("PostgreSQL cannot store now (\(error)); holding \(batch.count) messages unacknowledged")
        } else if let refused = findRefused(batch, writer: writer) {
          batch = refused
          continue
        } else {
          failed("PostgreSQL refused the batch (\(error)); holding \(batch.count) messages unacknowledged")
        }
        if stopping || stop.isSet { return nil }
      }
    }
  }

  /// Writes each message of a refused batch alone, to find the ones PostgreSQL will not
  /// take: those it refuses for their data (SQLSTATE class 22 or 23), or for any reason
  /// while others of the batch went in. Returns the batch with those turned into
  /// rejections (a refusal's own row that cannot be written is logged and let go), or nil
  /// when the fault is not in the messages: then the batch is held.
  private func findRefused(_ batch: [InboundMessage], writer: BatchWriter) -> [InboundMessage]? {
    var failures: [Int: PostgresError] = [:]
    for (index, message) in batch.enumerated() {
      do {
        _ = try writer.write([message])
      } catch let error {
        if error.isServerUnavailable || error.isResourceShortage || error.isTransient { return nil }
        failures[index] = error
      }
    }
    let someWent = failures.count < batch.count
    guard someWent || failures.values.contains(where: \.isRefusalOfData) else { return nil }
    var result: [InboundMessage] = []
    for (index, message) in batch.enumerated() {
      guard let error = failures[index], someWent || error.isRefusalOfData else {
        result.append(message)
        continue
      }
      guard case .accepted = message.judgement else {
        log.error("cannot keep a refused message from \(message.topic) in rejected (\(error)); acknowledged without it")
        acknowledge([message])
        continue
      }
      var refused = message
      refused.judgement = .rejected(Rejection(.refusedByDatabase, "PostgreSQL refused its rows: \(error)"))
      result.append(refused)
    }
    return result
  }

  /// PUBACKs for what came by the connection that is still open; the rest comes again.
  private func acknowledge(_ batch: [InboundMessage]) {
    guard let broker, broker.isOpen else { return }
    broker.acknowledge(batch.filter { $0.connection == generation }.compactMap(\.packetID))
  }
}
