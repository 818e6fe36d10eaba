import ControlProtocol
import DashPilotCore
import FoundationEssentials
import OfficeCore

/// The rows a job, a status and a refused message make.
extension BatchRows {
  /// A job in the state a message tells: the row keeps the furthest state heard, so the
  /// order messages arrive in does not change it (`office_job_rank`).
  mutating func addJob(_ job: WireJob, vehicle: String, sequence: Int64) {
    let visit = job.visit
    statements.append(
      (
        """
        INSERT INTO jobs (vehicle, id, name, destination, radius_m, window_start, window_end, note, state, shift,
          visit_arrival, visit_departure, visit_duration_s, visit_distance_m, receiver_reported_throughout,
          within_window, stop_end, job, sequence)
        VALUES ($1, $2, $3, ST_SetSRID(ST_MakePoint($5, $4), 4326), $6, $7, $8, $9, $10, $11, $12, $13, $14, $15,
          $16, $17, $18, $19::jsonb, $20)
        ON CONFLICT (vehicle, id) DO UPDATE SET name = EXCLUDED.name, destination = EXCLUDED.destination,
          radius_m = EXCLUDED.radius_m, window_start = EXCLUDED.window_start, window_end = EXCLUDED.window_end,
          note = EXCLUDED.note, state = EXCLUDED.state, shift = EXCLUDED.shift, visit_arrival = EXCLUDED.visit_arrival,
          visit_departure = EXCLUDED.visit_departure, visit_duration_s = EXCLUDED.visit_duration_s,
          visit_distance_m = EXCLUDED.visit_distance_m,
          receiver_reported_throughout = EXCLUDED.receiver_reported_throughout,
          within_window = EXCLUDED.within_window, stop_end = EXCLUDED.stop_end, job = EXCLUDED.job,
          sequence = EXCLUDED.sequence
        WHERE office_job_rank(EXCLUDED.state) > office_job_rank(jobs.state)
        """,
        [
          vehicle, job.id, job.name, "\(job.lat)", "\(job.lon)", "\(job.radiusMetres)", Self.time(job.windowStart),
          Self.time(job.windowEnd), job.note, job.state, job.shift.map(String.init), Self.time(visit?.arrival),
          Self.time(visit?.departure), visit.map { "\($0.durationSeconds)" }, visit.map { "\($0.distanceMetres)" },
          visit.map { Self.bool($0.receiverReportedThroughout) }, visit?.withinWindow.map(Self.bool), visit?.stopEnd,
          ControlCoding.text(job), String(sequence),
        ]
      ))
  }

  /// The retained status: the newest received wins (a box publishes it on every
  /// connection, and the broker the offline will when one dies).
  mutating func addStatus(_ status: BoxMessage.StatusBody, receivedAt: Date) {
    statements.append(
      (
        """
        UPDATE vehicles SET status = $2, status_since = $3, status_at = $4
        WHERE vehicle = $1 AND (status_at IS NULL OR status_at <= $4)
        """,
        [status.vehicle, status.state, Self.time(status.since), Self.time(receivedAt)]
      ))
  }

  /// A refused message, kept with its reason: the topic's vehicle level, the first 64 KiB
  /// of the payload, and a digest of topic and payload so that a redelivery is the same row.
  mutating func reject(_ message: InboundMessage, _ rejection: Rejection, topics: BoxTopics, worker: Int) {
    rejected[rejection.code, default: 0] += 1
    statements.append(
      (
        """
        INSERT INTO rejected (vehicle, digest, topic, code, reason, bytes, payload, received_at, worker)
        VALUES ($1, md5(convert_to($2, 'UTF8') || $6::bytea)::uuid, $2, $3, $4, $5, $6::bytea, $7, $8)
        ON CONFLICT DO NOTHING
        """,
        [
          topics.vehicleLevel(of: message.topic), message.topic, rejection.code.rawValue, rejection.reason,
          String(message.payloadSize), Self.hex(message.payload.prefix(65_536)), Self.time(message.receivedAt),
          String(worker),
        ]
      ))
  }

  /// bytea's hex input form: `\x` and two hex digits a byte.
  static func hex(_ bytes: ArraySlice<UInt8>) -> String {
    let digits = Array("0123456789abcdef".utf8)
    var text: [UInt8] = [0x5C, 0x78]
    text.reserveCapacity(2 + bytes.count * 2)
    for byte in bytes {
      text.append(digits[Int(byte >> 4)])
      text.append(digits[Int(byte & 0x0F)])
    }
    return String(decoding: text, as: UTF8.self)
  }
}
