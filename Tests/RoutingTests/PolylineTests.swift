import DashPilotCore
import Routing
import Testing

@Suite struct PolylineTests {
  /// The example of Google's polyline documentation, precision 5.
  @Test func decodesGooglesDocumentedExample() throws {
    let points = try #require(Polyline.decode("_p~iF~ps|U_ulLnnqC_mqNvxq`@", precision: 5))
    #expect(
      points == [
        GeoCoordinate(latitude: 38.5, longitude: -120.2), GeoCoordinate(latitude: 40.7, longitude: -120.95),
        GeoCoordinate(latitude: 43.252, longitude: -126.453),
      ])
    #expect(Polyline.encode(points, precision: 5) == "_p~iF~ps|U_ulLnnqC_mqNvxq`@")
  }

  @Test func precisionSixRoundTrips() throws {
    let points = [
      GeoCoordinate(latitude: 37.5, longitude: 127.0), GeoCoordinate(latitude: 37.508993, longitude: 127.011336),
      GeoCoordinate(latitude: -33.868_8, longitude: -151.209_3),
    ]
    #expect(Polyline.decode(Polyline.encode(points)) == points)
    #expect(Polyline.decode("") == [])
  }

  @Test func malformedTextIsRefusedNotCrashed() {
    #expect(Polyline.decode("_eyofA") == nil)  // a latitude with no longitude
    #expect(Polyline.decode("_eyofA_{mfq") == nil)  // ends inside a number
    #expect(Polyline.decode("_eyofA _{mfqF") == nil)  // a character outside the alphabet
    #expect(Polyline.decode("~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~?") == nil)  // a number too long to be one
    #expect(Polyline.decode(Polyline.encode([GeoCoordinate(latitude: 95, longitude: 0)])) == nil)  // off the Earth
  }
}
