import ControlProtocol
import DashPilotCore
import FoundationEssentials

/// Turns messages into the documented JSON (docs/uplink-messages.md). Pure: the vehicle,
/// the sequence and every time are passed in, so the same input is always the same bytes.
public struct UplinkEncoder: Sendable, Hashable {
  public var vehicleID: String

  public init(vehicleID: String) { self.vehicleID = vehicleID }

  public static let samplesSchema = "dashpilot.samples/1"
  public static let shiftSchema = "dashpilot.shift/1"
  public static let sessionSchema = "dashpilot.session/1"
  public static let stopSchema = "dashpilot.stop/1"
  public static let statusSchema = "dashpilot.status/1"
  public static let liveSchema = "dashpilot.live/1"
  public static let eventSchema = "dashpilot.event/1"

  /// The idempotency key a consumer de-duplicates on: "VEHICLE/SHIFT/SEQUENCE", with "-"
  /// for a session event outside any shift. The vehicle id holds no '/', so it is unambiguous.
  public func idempotencyKey(shiftID: Int64?, sequence: Int64) -> String {
    "\(vehicleID)/\(shiftID.map(String.init) ?? "-")/\(sequence)"
  }

  /// The payload of a queued message; `sequence` is the outbox's, `queuedAt` when it was
  /// committed. A reply is the command's answer as it is: its id is its key.
  public func encode(_ message: UplinkMessage, sequence: Int64, queuedAt: Date) -> [UInt8] {
    if case .reply(let reply) = message { return reply.payload }
    var json = JSONWriter()
    json.beginObject()
    switch message {
    case .samples: json.string("schema", Self.samplesSchema)
    case .shift: json.string("schema", Self.shiftSchema)
    case .session: json.string("schema", Self.sessionSchema)
    case .stop: json.string("schema", Self.stopSchema)
    case .event: json.string("schema", Self.eventSchema)
    case .reply: break
    }
    json.string("key", idempotencyKey(shiftID: message.shiftID, sequence: sequence))
    json.string("vehicle", vehicleID)
    json.integer("shift", message.shiftID)
    json.integer("sequence", sequence)
    json.time("queued_at", queuedAt)
    switch message {
    case .samples(let batch):
      json.string("capture_session", batch.captureSession?.rawValue)
      json.beginArray("samples")
      for sample in batch.samples {
        writeSample(sample, batchSession: batch.captureSession, into: &json)
      }
      json.endArray()
    case .shift(let report):
      json.time("started_at", report.startedAt)
      json.time("ended_at", report.endedAt)
      json.string("started_by", report.startedBy?.rawValue)
      json.string("ended_by", report.endedBy?.rawValue)
      json.json("distance", ControlCoding.text(WireDistance(report.distance, unit: report.unit)))
      json.string("summary", report.summary)
      json.json("jobs", ControlCoding.text(report.jobs))
    case .session(let event):
      json.string("capture_session", event.captureSession.rawValue)
      json.string("event", event.phase.rawValue)
      json.time("at", event.at)
      json.string("reason", event.reason)
    case .stop(let report):
      json.json("stop", ControlCoding.text(report.stop))
    case .event(let event):
      json.json("event", ControlCoding.text(event.event))
    case .reply:
      break
    }
    json.endObject()
    return Array(json.text.utf8)
  }

  /// The retained `status` payload. The offline form is also the MQTT last will, which the
  /// broker publishes when the connection dies, so it carries no time of its own.
  public func status(online: Bool, since: Date?) -> [UInt8] {
    var json = JSONWriter()
    json.beginObject()
    json.string("schema", Self.statusSchema)
    json.string("vehicle", vehicleID)
    json.string("state", online ? "online" : "offline")
    if online, let since { json.time("since", since) }
    json.endObject()
    return Array(json.text.utf8)
  }

  /// The retained `live` payload.
  public func live(_ status: LiveStatus) -> [UInt8] {
    var json = JSONWriter()
    json.beginObject()
    json.string("schema", Self.liveSchema)
    json.string("vehicle", vehicleID)
    json.time("at", status.at)
    if let position = status.position {
      writeSample(position, batchSession: position.captureSessionID, key: "position", into: &json)
    } else {
      json.string("position", nil)
    }
    if let shift = status.shift {
      json.beginObject("shift")
      json.integer("id", shift.shiftID)
      json.time("started_at", shift.startedAt)
      json.json("distance", ControlCoding.text(shift.distance))
      json.string("summary", shift.summary)
      json.endObject()
    } else {
      json.string("shift", nil)
    }
    if let guidance = status.guidance {
      json.beginObject("guidance")
      json.string("phase", guidance.phase)
      json.fixed("distance_remaining_m", guidance.distanceRemaining, digits: 1)
      json.endObject()
    } else {
      json.string("guidance", nil)
    }
    json.endObject()
    return Array(json.text.utf8)
  }

  /// One position: time, 7 decimals of degrees (about a centimetre), accuracy to a
  /// decimetre, speed to a centimetre per second, course to a tenth of a degree. Speed and
  /// course are absent when the receiver reported none. `held` (a held sample: the vehicle
  /// stood still, so the move to it is no distance), `accuracy_assumed` (the receiver
  /// reports no error estimate) and `dated_by_arrival` (the receiver sent no date: `time`
  /// is the report's arrival on the box's clock) appear only when true.
  private func writeSample(
    _ sample: RouteSample, batchSession: CaptureSessionID?, key: String? = nil, into json: inout JSONWriter
  ) {
    json.beginObject(key)
    json.time("time", sample.timestamp)
    json.fixed("lat", sample.coordinate.latitude, digits: 7)
    json.fixed("lon", sample.coordinate.longitude, digits: 7)
    json.fixed("accuracy", sample.horizontalAccuracy, digits: 1)
    if let speed = sample.speed { json.fixed("speed", speed, digits: 2) }
    if let course = sample.course { json.fixed("course", course, digits: 1) }
    if sample.isHeld { json.bool("held", true) }
    if sample.isAccuracyAssumed { json.bool("accuracy_assumed", true) }
    if sample.isDatedByArrival { json.bool("dated_by_arrival", true) }
    if sample.captureSessionID != batchSession {
      json.string("capture_session", sample.captureSessionID?.rawValue)
    }
    json.endObject()
  }
}
