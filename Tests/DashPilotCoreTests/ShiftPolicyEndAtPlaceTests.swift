import DashPilotCore
import Foundation
import Testing

/// `[Shift] EndAtPlace=`: a shift started on movement ends after `EndAfterStopAtPlace`
/// standing inside that place, the receiver reporting, instead of after `EndAfterStop`.
/// A vehicle on a line due north, one kept sample a second while it drives: `t` in seconds
/// from 08:00:00Z, `north` in metres from where it parked. The depot is 100 m around 1005 m.
@Suite("ShiftPolicy: ending at a place")
struct ShiftPolicyEndAtPlaceTests {
  static let epoch = Date(timeIntervalSince1970: 1_714_550_400)  // 2024-05-01T08:00:00Z
  static let metresPerDegree = 6_371_008.8 * Double.pi / 180

  static func at(north: Double) -> GeoCoordinate {
    GeoCoordinate(latitude: 51.5 + north / metresPerDegree, longitude: -0.12)
  }

  static let depot = Place(name: "Depot", kind: .depot, area: .circle(centre: at(north: 1005), radius: 100))

  struct Vehicle {
    var policy: ShiftPolicy
    var session = CaptureSessionID("s1")

    init(endPlace: Place? = ShiftPolicyEndAtPlaceTests.depot) {
      var configuration = ShiftPolicy.Configuration()
      configuration.endPlace = endPlace
      policy = ShiftPolicy(configuration: configuration)
    }

    mutating func kept(_ t: Double, north: Double, held: Bool = false) -> [String] {
      let sample = RouteSample(
        timestamp: epoch.addingTimeInterval(t), coordinate: ShiftPolicyEndAtPlaceTests.at(north: north),
        horizontalAccuracy: 5, speed: held ? 0 : 10, captureSessionID: session, isHeld: held)
      return Self.summary(policy.kept(sample))
    }

    /// A shift started on movement at t=600, its last move kept at t=700 at `north`
    /// (driving 10 m/s before it).
    static func arrived(at north: Double, endPlace: Place? = ShiftPolicyEndAtPlaceTests.depot) -> Vehicle {
      var vehicle = Vehicle(endPlace: endPlace)
      _ = vehicle.kept(0, north: north - 1000)
      for k in 0...100 { _ = vehicle.kept(600 + Double(k), north: north - 1000 + 10 * Double(k)) }
      return vehicle
    }

    static func summary(_ decisions: [ShiftDecision]) -> [String] {
      decisions.map { decision in
        func t(_ date: Date) -> String { String(Int(date.timeIntervalSince(epoch))) }
        switch decision {
        case let .start(at, samples, _): return "start \(t(at)) (\(samples.count) samples)"
        case let .keep(samples): return "keep " + samples.map { t($0.timestamp) }.joined(separator: ",")
        case let .end(at, cause): return "end \(t(at)) \(cause.rawValue)"
        }
      }
    }
  }

  @Test("stopped inside the place for 2 min: ends stopped_at_place at its last moving fix")
  func endsAtThePlace() {
    var vehicle = Vehicle.arrived(at: 1005)
    #expect(vehicle.policy.status?.endsAfterStop == 120)
    #expect(vehicle.kept(760, north: 1005, held: true) == [])
    #expect(vehicle.kept(819.9, north: 1005, held: true) == [])
    #expect(vehicle.kept(820, north: 1005, held: true) == ["end 700 stopped_at_place"])
    // The next drive from the depot starts a new shift, as after any end.
    #expect(vehicle.policy.status == nil)
  }

  @Test("the tick ends it at 2 min exactly, by the receiver's time")
  func endsOnTheTick() {
    var vehicle = Vehicle.arrived(at: 1050)  // 45 m from the centre: inside
    #expect(Vehicle.summary(vehicle.policy.timePassed(receiverTime: Self.epoch.addingTimeInterval(819.999))) == [])
    #expect(
      Vehicle.summary(vehicle.policy.timePassed(receiverTime: Self.epoch.addingTimeInterval(820)))
        == ["end 700 stopped_at_place"])
  }

  @Test("stopped outside the place, or with no end place, the 45 min limit holds")
  func elsewhereTheLimitHolds() {
    for var vehicle in [Vehicle.arrived(at: 1200), Vehicle.arrived(at: 1005, endPlace: nil)] {
      #expect(vehicle.policy.status?.endsAfterStop == 2700)
      #expect(Vehicle.summary(vehicle.policy.timePassed(receiverTime: Self.epoch.addingTimeInterval(820))) == [])
      #expect(
        Vehicle.summary(vehicle.policy.timePassed(receiverTime: Self.epoch.addingTimeInterval(3400)))
          == ["end 700 stopped"])
    }
  }

  @Test("a drive through the place that does not stop there keeps the shift")
  func drivingThrough() {
    var vehicle = Vehicle.arrived(at: 905)
    // On through the depot and out, a sample a second: never 2 min without a move.
    for k in 1...300 {
      #expect(vehicle.kept(700 + Double(k), north: 905 + 10 * Double(k)).allSatisfy { $0.hasPrefix("keep") })
    }
    #expect(vehicle.policy.status?.endsAfterStop == 2700)
  }

  @Test("capture interrupted at the place: not seen standing there, so the 45 min limit, capture_lost")
  func interruptedAtThePlace() {
    var vehicle = Vehicle.arrived(at: 1005)
    vehicle.policy.captureSessionEnded()
    vehicle.session = CaptureSessionID("s2")
    #expect(vehicle.kept(900, north: 1005) == [])
    #expect(Vehicle.summary(vehicle.policy.timePassed(receiverTime: Self.epoch.addingTimeInterval(3399))) == [])
    #expect(
      Vehicle.summary(vehicle.policy.timePassed(receiverTime: Self.epoch.addingTimeInterval(3400)))
        == ["end 700 capture_lost"])
  }
}
