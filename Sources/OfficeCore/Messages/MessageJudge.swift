import ControlProtocol
import FoundationEssentials

/// Reads what a box published and decides whether the office stores it: a message the
/// contract describes (docs/uplink-messages.md), on its own vehicle's topic, with a key
/// that is its own fields, within the size bound, with every field it needs in range.
/// Anything else is a `Rejection` with a sentence naming what was wrong. Pure: the topic
/// and the bytes in, a value out; it never traps, whatever the bytes.
public struct MessageJudge: Sendable {
  public var topics: BoxTopics
  /// The largest payload stored, in bytes (`[Ingest] MaximumPayload=`).
  public var maximumPayload: Int

  /// One decoder for every message (making one costs about as much as a small message's
  /// decoding); JSONDecoder may be used from several threads at once.
  private let decoder = ControlCoding.makeDecoder()

  public init(topics: BoxTopics, maximumPayload: Int) {
    self.topics = topics
    self.maximumPayload = maximumPayload
  }

  public enum Judgement: Sendable, Hashable {
    case accepted(BoxMessage)
    case rejected(Rejection)
  }

  /// `payloadSize` is the payload's real size when `payload` holds only its beginning.
  public func judge(topic: String, payload: [UInt8], payloadSize: Int? = nil) -> Judgement {
    let size = payloadSize ?? payload.count
    guard size <= maximumPayload, payload.count == size else {
      return .rejected(
        Rejection(.tooLarge, "the payload is \(size) bytes, over the bound of \(maximumPayload) (MaximumPayload=)"))
    }
    guard let (vehicle, kind) = topics.match(topic) else {
      return .rejected(Rejection(.unknownSchema, "the topic \(topic) is none the office subscribes to"))
    }
    let decoded: BoxPayload
    do {
      decoded = try decoder.decode(BoxPayload.self, from: Data(payload))
    } catch let unknown as BoxPayload.UnknownSchema {
      return .rejected(Rejection(.unknownSchema, "the schema \"\(unknown.schema)\" is none the office knows"))
    } catch let error as DecodingError {
      return .rejected(Self.rejection(error))
    } catch {
      return .rejected(Rejection(.malformed, "\(error)"))
    }
    guard decoded.schema == kind.schema else {
      return .rejected(
        Rejection(.wrongTopic, "a \(decoded.schema) message on \(topic), where \(kind.schema) belongs"))
    }
    guard decoded.vehicle == vehicle else {
      return .rejected(
        Rejection(
          .vehicleMismatch, "the vehicle \"\(decoded.vehicle)\" wrote on \(topic), the topic of \"\(vehicle)\""))
    }
    do {
      return .accepted(try Self.message(decoded))
    } catch {
      return .rejected(error)
    }
  }

  static func message(_ decoded: BoxPayload) throws(Rejection) -> BoxMessage {
    switch decoded.message {
    case .status(let state, let since):
      guard state == "online" || state == "offline" else {
        throw Rejection(.malformed, "state \"\(state)\" is neither online nor offline")
      }
      return .status(BoxMessage.StatusBody(vehicle: decoded.vehicle, state: state, since: since))
    case .queued(let shift, let sequence, let queuedAt, let queued):
      let envelope = BoxMessage.Envelope(vehicle: decoded.vehicle, shift: shift, sequence: sequence, queuedAt: queuedAt)
      guard decoded.key == envelope.key else {
        throw Rejection(
          .keyMismatch, "key \"\(decoded.key ?? "")\" is not \"\(envelope.key)\", the message's vehicle/shift/sequence")
      }
      guard sequence >= 1 else { throw Rejection(.malformed, "sequence \(sequence) is not 1 or more") }
      return try body(queued, envelope: envelope)
    }
  }

  static func body(_ queued: BoxPayload.Queued, envelope: BoxMessage.Envelope) throws(Rejection) -> BoxMessage {
    switch queued {
    case .samples(let batchSession, let wire):
      guard let shift = envelope.shift else { throw Rejection(.malformed, "a samples message with no shift") }
      var samples: [BoxMessage.Sample] = []
      samples.reserveCapacity(wire.count)
      for (index, sample) in wire.enumerated() {
        samples.append(try SampleRange.checked(sample, index: index, batchSession: batchSession))
      }
      return .samples(envelope, BoxMessage.SamplesBody(shift: shift, samples: samples))
    case .shift(let fields):
      guard let shift = envelope.shift else { throw Rejection(.malformed, "a shift message with no shift") }
      guard fields.endedAt >= fields.startedAt else {
        throw Rejection(.malformed, "the shift ended before it started")
      }
      return .shift(
        envelope,
        BoxMessage.ShiftBody(
          shift: shift, startedAt: fields.startedAt, endedAt: fields.endedAt, startedBy: fields.startedBy,
          endedBy: fields.endedBy, distance: fields.distance, summary: fields.summary, jobs: fields.jobs))
    case .session(let captureSession, let event, let at, let reason):
      guard event == "start" || event == "end" else {
        throw Rejection(.malformed, "session event \"\(event)\" is neither start nor end")
      }
      return .session(
        envelope, BoxMessage.SessionBody(captureSession: captureSession, event: event, at: at, reason: reason))
    case .stop(let stop):
      guard SampleRange.isOnEarth(latitude: stop.latitude, longitude: stop.longitude) else {
        throw Rejection(.malformed, "the stop's position \(stop.latitude),\(stop.longitude) is not on Earth")
      }
      return .stop(envelope, stop)
    case .event(let type, let time, let job):
      return .event(envelope, BoxMessage.EventBody(type: type, time: time, job: job))
    }
  }

  /// A decoding failure in words: the field's path and what was wrong with it.
  static func rejection(_ error: DecodingError) -> Rejection {
    func path(_ context: DecodingError.Context) -> String {
      context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        .trimmingPrefix(".").description
    }
    switch error {
    case .dataCorrupted(let context) where context.codingPath.isEmpty:
      return Rejection(.notJSON, "the payload is not JSON")
    case .typeMismatch(_, let context) where context.codingPath.isEmpty:
      return Rejection(.notJSON, "the payload is JSON but not an object")
    case .keyNotFound(let key, let context):
      let place = path(context)
      if place.isEmpty, key.stringValue == "schema" { return Rejection(.unknownSchema, "the payload has no schema") }
      return Rejection(.malformed, "\"\(key.stringValue)\" is missing" + (place.isEmpty ? "" : " in \(place)"))
    case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
      return Rejection(.malformed, "\(path(context)) is not \(Self.name(of: type))")
    case .dataCorrupted(let context):
      return Rejection(.malformed, "\(path(context)): \(context.debugDescription)")
    @unknown default:
      return Rejection(.malformed, "\(error)")
    }
  }

  static func name(of type: Any.Type) -> String {
    switch type {
    case is String.Type: "a string"
    case is Double.Type, is Int64.Type, is Int.Type: "a number"
    case is Bool.Type: "true or false"
    default: "of the expected type"
    }
  }
}
