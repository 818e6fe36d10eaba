import ControlProtocol
import DashPilotCore
import Foundation
import Office
import OfficeCore
import Uplink

/// Payloads as a box writes them, by the box's own encoder (`UplinkEncoder`), and the
/// office's judgement of them as a worker would hold them.
struct BoxPayloads {
  var vehicle: String
  var encoder: UplinkEncoder { UplinkEncoder(vehicleID: vehicle) }
  static let t0 = Date(timeIntervalSince1970: 1_700_000_000)  // 2023-11-14T22:13:20Z
  static let topics = try! BoxTopics(pattern: "dashpilot/+")
  static let judge = MessageJudge(topics: topics, maximumPayload: 1_048_576)

  init(_ vehicle: String) { self.vehicle = vehicle }

  func topic(_ kind: BoxTopics.Kind) -> String { "dashpilot/\(vehicle)/\(kind.rawValue)" }

  /// `count` positions 10 m apart heading east from 51.5,-0.12, one a second from `start`.
  static func route(
    count: Int, start: Date = t0, session: String = "cs-1", from origin: GeoCoordinate? = nil
  ) -> [RouteSample] {
    var position = origin ?? GeoCoordinate(latitude: 51.5, longitude: -0.12)
    return (0..<count).map { index in
      defer { position = GeographicDistance.destination(from: position, bearing: 90, distance: 10) }
      return RouteSample(
        timestamp: start + Double(index), coordinate: position, horizontalAccuracy: 5, speed: 10, course: 90,
        captureSessionID: CaptureSessionID(session))
    }
  }

  func samples(_ samples: [RouteSample], shift: Int64, sequence: Int64, queuedAt: Date? = nil) -> (String, [UInt8]) {
    let queued = queuedAt ?? (samples.last?.timestamp ?? Self.t0) + 1
    return (
      topic(.samples),
      encoder.encode(.samples(CommittedSamples(shiftID: shift, samples: samples)), sequence: sequence, queuedAt: queued)
    )
  }

  func shift(
    _ id: Int64, startedAt: Date, endedAt: Date, distance: RouteDistance, sequence: Int64, jobs: [WireJob] = []
  ) -> (String, [UInt8]) {
    var report = ShiftReport(
      shift: Shift(id: id, startedAt: startedAt, endedAt: endedAt), distance: distance, startedBy: .movement,
      endedBy: .stopped)!
    report.jobs = jobs
    return (topic(.shift), encoder.encode(.shift(report), sequence: sequence, queuedAt: endedAt + 1))
  }

  func session(
    _ id: String, phase: SessionEvent.Phase, at: Date, reason: String, shift: Int64?, sequence: Int64
  ) -> (String, [UInt8]) {
    let event = SessionEvent(shiftID: shift, captureSession: CaptureSessionID(id), phase: phase, at: at, reason: reason)
    return (topic(.session), encoder.encode(.session(event), sequence: sequence, queuedAt: at))
  }

  func stop(_ stop: WireStop, shift: Int64, sequence: Int64) -> (String, [UInt8]) {
    (
      topic(.stop),
      encoder.encode(.stop(StopReport(shiftID: shift, stop: stop)), sequence: sequence, queuedAt: stop.departure)
    )
  }

  func status(online: Bool, since: Date?) -> (String, [UInt8]) {
    (topic(.status), encoder.status(online: online, since: since))
  }

  /// What a worker holds for the message after the judge has read it.
  static func inbound(
    _ message: (String, [UInt8]), receivedAt: Date = Date(), packetID: UInt16? = nil
  ) -> InboundMessage {
    InboundMessage(
      topic: message.0, payload: message.1, payloadSize: message.1.count, receivedAt: receivedAt,
      judgement: judge.judge(topic: message.0, payload: message.1), packetID: packetID, connection: 1)
  }
}

extension BoxPayloads {
  func event(_ event: ControlEvent, shift: Int64?, sequence: Int64) -> (String, [UInt8]) {
    (
      topic(.events),
      encoder.encode(.event(FleetEvent(shiftID: shift, event: event)), sequence: sequence, queuedAt: event.time + 0.3)
    )
  }
}
