import ControlProtocol
import DashPilotCore
import FoundationEssentials
import OfficeCore

/// The rows a batch writes: samples and ledger entries in COPY's text format (most of the
/// volume), and one parameterised statement for each of the rarer kinds (a shift, a
/// session, a stop, an event, a job, a status, a rejection).
struct BatchRows {
  var samples = CopyText()
  var ledger = CopyText()
  var statements: [(sql: String, parameters: [String?])] = []
  var vehicles: Set<String> = []
  var partitions: [(table: String, date: Date)] = []
  var messages = 0
  var samplesSent = 0
  var rejected: [Rejection.Code: Int] = [:]
  var newestQueuedAt: Date?

  let worker: Int

  init(_ batch: [InboundMessage], topics: BoxTopics, worker: Int) {
    self.worker = worker
    for message in batch {
      switch message.judgement {
      case .accepted(let box): add(box, message)
      case .rejected(let rejection): reject(message, rejection, topics: topics, worker: worker)
      }
    }
  }

  mutating func add(_ box: BoxMessage, _ message: InboundMessage) {
    vehicles.insert(box.vehicle)
    guard let envelope = box.envelope else {
      if case .status(let status) = box { addStatus(status, receivedAt: message.receivedAt) }
      return
    }
    messages += 1
    newestQueuedAt = max(newestQueuedAt ?? envelope.queuedAt, envelope.queuedAt)
    switch box {
    case .samples(_, let body):
      for sample in body.samples { addSample(sample, envelope: envelope, shift: body.shift) }
      samplesSent += body.samples.count
    case .shift(_, let body): addShift(body, envelope: envelope, payload: message.payloadText)
    case .session(_, let body): addSession(body, envelope: envelope)
    case .stop(_, let stop): addStop(stop, envelope: envelope, payload: message.payloadText)
    case .event(_, let body): addEvent(body, envelope: envelope, payload: message.payloadText)
    case .status: break
    }
    partitions.append(("ledger", envelope.queuedAt))
    ledger.text(envelope.vehicle)
    ledger.integer(envelope.sequence)
    ledger.time(envelope.queuedAt)
    ledger.integer(envelope.shift)
    ledger.text(Self.kind(of: box))
    ledger.text(envelope.key)
    ledger.integer(Int64(message.payloadSize))
    ledger.integer(Int64(box.sampleCount))
    ledger.time(message.receivedAt)
    ledger.integer(Int64(worker))
    ledger.endRow()
  }

  static func kind(of box: BoxMessage) -> String {
    switch box {
    case .samples: "samples"
    case .shift: "shift"
    case .session: "session"
    case .stop: "stop"
    case .event: "events"
    case .status: "status"
    }
  }

  mutating func addSample(_ sample: BoxMessage.Sample, envelope: BoxMessage.Envelope, shift: Int64) {
    partitions.append(("samples", sample.time))
    samples.text(envelope.vehicle)
    samples.integer(shift)
    samples.time(sample.time)
    samples.point(latitude: sample.latitude, longitude: sample.longitude)
    samples.number(sample.accuracy)
    samples.number(sample.speed)
    samples.number(sample.course)
    samples.bool(sample.isHeld)
    samples.bool(sample.isAccuracyAssumed)
    samples.bool(sample.isDatedByArrival)
    samples.text(sample.captureSession)
    samples.integer(envelope.sequence)
    samples.endRow()
  }

  mutating func addShift(_ body: BoxMessage.ShiftBody, envelope: BoxMessage.Envelope, payload: String) {
    let distance = body.distance
    statements.append(
      (
        """
        INSERT INTO shifts (vehicle, shift, started_at, ended_at, started_by, ended_by, metres, value, unit, segments,
          gaps, usable_positions, inferred_continuity, measured, partial, summary, distance, key, sequence, queued_at)
        VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, ($17::jsonb)->'distance',
          $18, $19, $20)
        ON CONFLICT DO NOTHING
        """,
        [
          envelope.vehicle, String(body.shift), Self.time(body.startedAt), Self.time(body.endedAt), body.startedBy,
          body.endedBy, "\(distance.metres)", distance.value.map { "\($0)" }, distance.unit,
          String(distance.segments), String(distance.gaps), String(distance.usablePositions),
          Self.bool(distance.usesInferredContinuity), Self.bool(distance.isMeasured), Self.bool(distance.isPartial),
          body.summary, payload, envelope.key, String(envelope.sequence), Self.time(envelope.queuedAt),
        ]
      ))
    for job in body.jobs { addJob(job, vehicle: envelope.vehicle, sequence: envelope.sequence) }
  }

  mutating func addSession(_ body: BoxMessage.SessionBody, envelope: BoxMessage.Envelope) {
    statements.append(
      (
        """
        INSERT INTO sessions (vehicle, capture_session, event, shift, at, reason, sequence, queued_at)
        VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT DO NOTHING
        """,
        [
          envelope.vehicle, body.captureSession, body.event, envelope.shift.map(String.init), Self.time(body.at),
          body.reason, String(envelope.sequence), Self.time(envelope.queuedAt),
        ]
      ))
  }

  mutating func addStop(_ stop: WireStop, envelope: BoxMessage.Envelope, payload: String) {
    statements.append(
      (
        """
        INSERT INTO stops (vehicle, arrival, shift, departure, duration_s, start, "end", cut, position, wander_m,
          positions, place, stop, sequence)
        VALUES ($1, $2, $3, $4, $5, $6, $7, $8, ST_SetSRID(ST_MakePoint($10, $9), 4326), $11, $12, $13,
          ($14::jsonb)->'stop', $15)
        ON CONFLICT DO NOTHING
        """,
        [
          envelope.vehicle, Self.time(stop.arrival), envelope.shift.map(String.init), Self.time(stop.departure),
          "\(stop.durationSeconds)", stop.start, stop.end, stop.cut, "\(stop.latitude)", "\(stop.longitude)",
          "\(stop.wanderMetres)", String(stop.positions), stop.place, payload, String(envelope.sequence),
        ]
      ))
  }

  mutating func addEvent(_ body: BoxMessage.EventBody, envelope: BoxMessage.Envelope, payload: String) {
    partitions.append(("events", body.time))
    statements.append(
      (
        """
        INSERT INTO events (vehicle, time, type, digest, shift, sequence, message, event)
        SELECT $1, $2, $3, md5((p->'event')::text)::uuid, $4, $5, p->'event'->>'message', p->'event'
        FROM (SELECT $6::jsonb AS p) payload
        ON CONFLICT DO NOTHING
        """,
        [
          envelope.vehicle, Self.time(body.time), body.type, envelope.shift.map(String.init),
          String(envelope.sequence), payload,
        ]
      ))
    if let job = body.job { addJob(job, vehicle: envelope.vehicle, sequence: envelope.sequence) }
  }
}

extension BatchRows {
  static func time(_ date: Date) -> String { UTCTimestamp.string(date) ?? "infinity" }
  static func time(_ date: Date?) -> String? { date.map { time($0) } }
  static func bool(_ value: Bool) -> String { value ? "t" : "f" }
}
