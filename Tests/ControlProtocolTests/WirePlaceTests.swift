import ControlProtocol
import DashPilotCore
import Foundation
import Testing

/// `report`'s `places`: a circle and a polygon each in one shape, every member written (the
/// other geometry's null), and read back by the client as the same area.
struct WirePlaceTests {
  static let centre = GeoCoordinate(latitude: 51.5, longitude: -0.12)

  @Test func aCircleCarriesItsCentreAndRadiusAndReadsBack() throws {
    let depot = Place(name: "Depot", kind: .depot, area: .circle(centre: Self.centre, radius: 105))
    let text = ControlCoding.text(WirePlace(depot))
    #expect(
      text == #"{"kind":"depot","lat":51.5,"lon":-0.12,"name":"Depot","polygons":null,"radius_m":105}"#)
    let read = try ControlCoding.makeDecoder().decode(WirePlace.self, from: Data(text.utf8))
    #expect(read.area == depot.area)
  }

  @Test func aPolygonCarriesItsRingsAsGeoJSONAndReadsBack() throws {
    let ring = [(51.5, -0.12), (51.5, -0.11), (51.51, -0.11), (51.5, -0.12)].map {
      GeoCoordinate(latitude: $0.0, longitude: $0.1)
    }
    let yard = Place(name: "Yard", kind: .customer, area: .polygons([[ring]]))
    let text = ControlCoding.text(WirePlace(yard))
    #expect(
      text
        == #"{"kind":"customer","lat":null,"lon":null,"name":"Yard","#
        + #""polygons":[[[[-0.12,51.5],[-0.11,51.5],[-0.11,51.51],[-0.12,51.5]]]],"radius_m":null}"#)
    let read = try ControlCoding.makeDecoder().decode(WirePlace.self, from: Data(text.utf8))
    #expect(read.area == yard.area)
    // A position with one number is no shape to draw.
    let broken = #"{"kind":"customer","name":"Yard","polygons":[[[[-0.12],[-0.11,51.5],[-0.11,51.51]]]]}"#
    #expect(try ControlCoding.makeDecoder().decode(WirePlace.self, from: Data(broken.utf8)).area == nil)
  }
}
