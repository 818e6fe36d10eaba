import DashPilotCore
import Testing

@Suite struct GeographicDistanceTests {
  let london = GeoCoordinate(latitude: 51.5074, longitude: -0.1278)
  let paris = GeoCoordinate(latitude: 48.8566, longitude: 2.3522)

  @Test func londonToParisOnTheMeanSphere() {
    // Reference computed independently (Python, same formula and radius): 343,556.53 m.
    #expect(abs(GeographicDistance.metres(from: london, to: paris) - 343_556.5349) < 0.001)
  }

  @Test func oneDegreeOfLatitudeIsOneThreeHundredSixtiethOfTheCircumference() {
    let d = GeographicDistance.metres(
      from: GeoCoordinate(latitude: 0, longitude: 0), to: GeoCoordinate(latitude: 1, longitude: 0))
    #expect(abs(d - 111_195.0802) < 0.001)
  }

  @Test func distanceIsSymmetricAndZeroToItself() {
    #expect(GeographicDistance.metres(from: london, to: london) == 0)
    #expect(
      GeographicDistance.metres(from: london, to: paris)
        == GeographicDistance.metres(from: paris, to: london))
  }

  @Test func initialBearings() {
    #expect(abs(GeographicDistance.initialBearing(from: london, to: paris) - 148.1156) < 0.001)
    let origin = GeoCoordinate(latitude: 0, longitude: 0)
    #expect(GeographicDistance.initialBearing(from: origin, to: GeoCoordinate(latitude: 1, longitude: 0)) == 0)
    #expect(
      abs(GeographicDistance.initialBearing(from: origin, to: GeoCoordinate(latitude: 0, longitude: 1)) - 90) < 1e-9)
    #expect(
      abs(GeographicDistance.initialBearing(from: origin, to: GeoCoordinate(latitude: 0, longitude: -1)) - 270) < 1e-9)
  }

  @Test func destinationTravelsTheDistanceAsked() {
    let there = GeographicDistance.destination(from: london, bearing: 37, distance: 1234)
    #expect(abs(GeographicDistance.metres(from: london, to: there) - 1234) < 1e-6)
    #expect(abs(GeographicDistance.initialBearing(from: london, to: there) - 37) < 1e-6)
  }

  @Test func angleBetweenBearingsIsTheSmallerOne() {
    #expect(GeographicDistance.angleBetween(350, 10) == 20)
    #expect(GeographicDistance.angleBetween(90, 270) == 180)
    #expect(GeographicDistance.angleBetween(-90, 270) == 0)
  }

  @Test(arguments: [
    (Double.nan, 0.0, false), (90.0, 180.0, true), (-90.0, -180.0, true), (90.0001, 0.0, false),
    (0.0, 180.0001, false), (0.0, Double.infinity, false),
  ])
  func validity(latitude: Double, longitude: Double, valid: Bool) {
    #expect(GeoCoordinate(latitude: latitude, longitude: longitude).isValid == valid)
  }
}
