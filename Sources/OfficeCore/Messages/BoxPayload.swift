import ControlProtocol
import FoundationEssentials

/// A payload read in one pass: the schema first, then the fields that schema has
/// (docs/uplink-messages.md). Fields a schema gains later are ignored, as the page allows;
/// a field it needs that is missing or of another type fails the decoding, naming it.
struct BoxPayload: Decodable {
  var schema: String
  var key: String?
  var vehicle: String
  var message: Body

  enum Body {
    case queued(shift: Int64?, sequence: Int64, queuedAt: Date, Queued)
    case status(state: String, since: Date?)
  }

  enum Queued {
    case samples(batchSession: String?, [WireSample])
    case shift(ShiftFields)
    case session(captureSession: String, event: String, at: Date, reason: String)
    case stop(WireStop)
    case event(type: String, time: Date, job: WireJob?)
  }

  struct WireSample: Decodable {
    var time: Date
    var lat: Double
    var lon: Double
    var accuracy: Double
    var speed: Double?
    var course: Double?
    var held: Bool?
    var accuracyAssumed: Bool?
    var datedByArrival: Bool?
    /// Present only on a sample whose session differs from the batch's (null: none).
    var captureSession: String??

    enum CodingKeys: String, CodingKey {
      case time, lat, lon, accuracy, speed, course, held
      case accuracyAssumed = "accuracy_assumed"
      case datedByArrival = "dated_by_arrival"
      case captureSession = "capture_session"
    }

    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      time = try container.decode(Date.self, forKey: .time)
      lat = try container.decode(Double.self, forKey: .lat)
      lon = try container.decode(Double.self, forKey: .lon)
      accuracy = try container.decode(Double.self, forKey: .accuracy)
      speed = try container.decodeIfPresent(Double.self, forKey: .speed)
      course = try container.decodeIfPresent(Double.self, forKey: .course)
      held = try container.decodeIfPresent(Bool.self, forKey: .held)
      accuracyAssumed = try container.decodeIfPresent(Bool.self, forKey: .accuracyAssumed)
      datedByArrival = try container.decodeIfPresent(Bool.self, forKey: .datedByArrival)
      if container.contains(.captureSession) {
        captureSession = .some(try container.decodeIfPresent(String.self, forKey: .captureSession))
      }
    }
  }

  struct ShiftFields {
    var startedAt: Date
    var endedAt: Date
    var startedBy: String?
    var endedBy: String?
    var distance: WireDistance
    var summary: String
    var jobs: [WireJob]
  }

  struct WireEvent: Decodable {
    var type: String
    var time: Date
    var fields: EventFields?
  }

  struct EventFields: Decodable {
    var job: WireJob?
  }

  enum CodingKeys: String, CodingKey {
    case schema, key, vehicle, shift, sequence, samples, event, at, reason, stop, summary, distance, jobs, state
    case since
    case queuedAt = "queued_at"
    case captureSession = "capture_session"
    case startedAt = "started_at"
    case endedAt = "ended_at"
    case startedBy = "started_by"
    case endedBy = "ended_by"
  }

  struct UnknownSchema: Error {
    var schema: String
  }

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let schema = try container.decode(String.self, forKey: .schema)
    guard let kind = BoxTopics.Kind.allCases.first(where: { $0.schema == schema }) else {
      throw UnknownSchema(schema: schema)
    }
    self.schema = schema
    vehicle = try container.decode(String.self, forKey: .vehicle)
    if kind == .status {
      key = nil
      message = .status(
        state: try container.decode(String.self, forKey: .state),
        since: try container.decodeIfPresent(Date.self, forKey: .since))
      return
    }
    key = try container.decode(String.self, forKey: .key)
    let shift = try container.decodeIfPresent(Int64.self, forKey: .shift)
    let sequence = try container.decode(Int64.self, forKey: .sequence)
    let queuedAt = try container.decode(Date.self, forKey: .queuedAt)
    let queued: Queued
    switch kind {
    case .samples:
      queued = .samples(
        batchSession: try container.decodeIfPresent(String.self, forKey: .captureSession),
        try container.decode([WireSample].self, forKey: .samples))
    case .shift:
      queued = .shift(
        ShiftFields(
          startedAt: try container.decode(Date.self, forKey: .startedAt),
          endedAt: try container.decode(Date.self, forKey: .endedAt),
          startedBy: try container.decodeIfPresent(String.self, forKey: .startedBy),
          endedBy: try container.decodeIfPresent(String.self, forKey: .endedBy),
          distance: try container.decode(WireDistance.self, forKey: .distance),
          summary: try container.decode(String.self, forKey: .summary),
          jobs: try container.decodeIfPresent([WireJob].self, forKey: .jobs) ?? []))
    case .session:
      queued = .session(
        captureSession: try container.decode(String.self, forKey: .captureSession),
        event: try container.decode(String.self, forKey: .event), at: try container.decode(Date.self, forKey: .at),
        reason: try container.decode(String.self, forKey: .reason))
    case .stop:
      queued = .stop(try container.decode(WireStop.self, forKey: .stop))
    case .events:
      let event = try container.decode(WireEvent.self, forKey: .event)
      queued = .event(type: event.type, time: event.time, job: event.fields?.job)
    case .status:
      throw UnknownSchema(schema: schema)
    }
    message = .queued(shift: shift, sequence: sequence, queuedAt: queuedAt, queued)
  }
}
