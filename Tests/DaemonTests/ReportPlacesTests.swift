import ControlProtocol
import DashPilotCore
import Foundation
import Testing

@testable import Daemon

/// Which places a report draws: those within or touching the box around what is drawn (at
/// least 200 m a side), in the file's order, never a private one.
struct ReportPlacesTests {
  static let origin = GeoCoordinate(latitude: 51.5, longitude: -0.12)

  static func at(north: Double, east: Double = 0) -> GeoCoordinate {
    GeographicDistance.destination(
      from: GeographicDistance.destination(from: origin, bearing: 0, distance: north), bearing: 90, distance: east)
  }

  @Test func withinTouchingAndFarAndPrivate() {
    // A drive 1 km north: the box is 200 m wide (100 m each side) and 1 km tall.
    let drive = (0...10).map { Self.at(north: Double($0) * 100) }
    let places = [
      Place(name: "Depot", kind: .depot, area: .circle(centre: Self.at(north: 500), radius: 50)),
      // Its edge 10 m inside the box's east side; then one whose edge stops 10 m short of it.
      Place(name: "Touching", kind: .customer, area: .circle(centre: Self.at(north: 500, east: 190), radius: 100)),
      Place(name: "Beside", kind: .customer, area: .circle(centre: Self.at(north: 500, east: 210), radius: 100)),
      Place(name: "Home", kind: .private, area: .circle(centre: Self.at(north: 900), radius: 50)),
      Place(
        name: "Estate", kind: .other,
        area: .polygons([
          [
            [
              Self.at(north: -500, east: -500), Self.at(north: -500, east: 500), Self.at(north: 50, east: 0),
              Self.at(north: -500, east: -500),
            ]
          ]
        ])),
      Place(
        name: "Far", kind: .other,
        area: .polygons([
          [[Self.at(north: 1500), Self.at(north: 1600), Self.at(north: 1600, east: 100), Self.at(north: 1500)]]
        ])),
    ]
    #expect(ReportPlaces.touching(drive, of: places).map(\.name) == ["Depot", "Touching", "Estate"])
    // A drive that never moved is drawn 200 m across: a place 90 m off touches that box.
    let parked = [Self.origin]
    let near = Place(name: "Near", kind: .fuel, area: .circle(centre: Self.at(north: 0, east: 140), radius: 50))
    let off = Place(name: "Off", kind: .fuel, area: .circle(centre: Self.at(north: 0, east: 160), radius: 50))
    #expect(ReportPlaces.touching(parked, of: [near, off]).map(\.name) == ["Near"])
    #expect(ReportPlaces.touching([], of: places).isEmpty)
  }
}
