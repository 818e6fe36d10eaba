import DashPilotCore
import FoundationEssentials
import Uplink

/// Vehicles driving at a steady 10 m/s, each sending one `samples` message a second with
/// one position, as a box with a 1 Hz receiver and `[Store] CommitInterval=1` does: the
/// payloads are the box's own encoder's (`UplinkEncoder`), so the office reads exactly
/// what boxes write. The same seed and tick give the same positions.
public struct SimulatedFleet: Sendable {
  public struct Vehicle: Sendable {
    public var id: String
    public var encoder: UplinkEncoder
    public var shift: Int64
    public var sequence: Int64 = 0
    public var position: GeoCoordinate
    public var bearing: Double
    public var session: CaptureSessionID
  }

  public private(set) var vehicles: [Vehicle]
  /// The fix time of tick 0.
  public let start: Date

  public init(count: Int, prefix: String = "sim", shift: Int64 = 1, start: Date, seed: UInt64 = 39) {
    var state = seed
    func next() -> Double {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Double(state >> 11) / Double(1 << 53)
    }
    let width = String(count).count
    vehicles = (0..<count).map { index in
      let number = String(index + 1)
      let id = "\(prefix)-\(String(repeating: "0", count: max(0, width - number.count)))\(number)"
      return Vehicle(
        id: id, encoder: UplinkEncoder(vehicleID: id), shift: shift,
        position: GeoCoordinate(latitude: 51.3 + next() * 0.4, longitude: -0.4 + next() * 0.6),
        bearing: next() * 360, session: CaptureSessionID("cs-\(id)-1"))
    }
    self.start = start
  }

  /// Vehicle `index`'s message for second `tick`: its next sequence, one position 10 m on
  /// from the last, queued at `queuedAt`. Returns the topic and the payload.
  public mutating func message(vehicle index: Int, tick: Int, queuedAt: Date) -> (topic: String, payload: [UInt8]) {
    var vehicle = vehicles[index]
    vehicle.sequence += 1
    vehicle.position = GeographicDistance.destination(from: vehicle.position, bearing: vehicle.bearing, distance: 10)
    let sample = RouteSample(
      timestamp: start + Double(tick), coordinate: vehicle.position, horizontalAccuracy: 4.5, speed: 10,
      course: vehicle.bearing, captureSessionID: vehicle.session)
    let payload = vehicle.encoder.encode(
      .samples(CommittedSamples(shiftID: vehicle.shift, samples: [sample])), sequence: vehicle.sequence,
      queuedAt: queuedAt)
    vehicles[index] = vehicle
    return ("dashpilot/\(vehicle.id)/samples", payload)
  }

  /// Messages sent so far, by every vehicle.
  public var messagesSent: Int64 { vehicles.reduce(0) { $0 + $1.sequence } }
}
