import DashPilotCore
import Guidance
import Routing
import Testing

/// The exact requests each provider sends: what the engines' documentation asks for.
@Suite struct RequestFormatTests {
  let origin = GeoCoordinate(latitude: 37.5, longitude: 127.0)
  let destination = GeoCoordinate(latitude: 37.508_993_2, longitude: 127.011_335_7)

  @Test func valhallaDrivingWithCourseSendsHeading() {
    let provider = ValhallaProvider(baseURL: "http://127.0.0.1:8002/")
    let request = provider.httpRequest(
      for: RouteRequest(origin: origin, course: 359.7, destination: destination, mode: .driving))
    #expect(request.method == .post)
    #expect(request.url == "http://127.0.0.1:8002/route")
    #expect(request.headers == ["Content-Type: application/json"])
    #expect(
      String(decoding: request.body, as: UTF8.self)
        == #"{"locations":[{"lat":37.5,"lon":127,"heading":0,"heading_tolerance":45},{"lat":37.5089932,"lon":127.0113357}],"#
        + #""costing":"auto","directions_options":{"units":"kilometers"}}"#)
  }

  @Test func valhallaWalkingWithoutCourseSendsNoHeading() {
    let provider = ValhallaProvider(baseURL: "http://h:1", headingTolerance: 30)
    let request = provider.httpRequest(
      for: RouteRequest(origin: origin, course: nil, destination: destination, mode: .walking))
    #expect(
      String(decoding: request.body, as: UTF8.self)
        == #"{"locations":[{"lat":37.5,"lon":127},{"lat":37.5089932,"lon":127.0113357}],"#
        + #""costing":"pedestrian","directions_options":{"units":"kilometers"}}"#)
    let turned = provider.httpRequest(
      for: RouteRequest(origin: origin, course: -90, destination: destination, mode: .walking))
    #expect(String(decoding: turned.body, as: UTF8.self).contains(#""heading":270,"heading_tolerance":30}"#))
  }

  @Test func osrmURLCarriesProfileCoordinatesAndBearing() {
    let provider = OSRMProvider(baseURL: "http://127.0.0.1:5000")
    let driving = provider.httpRequest(
      for: RouteRequest(origin: origin, course: 90.4, destination: destination, mode: .driving))
    #expect(driving.method == .get)
    #expect(
      driving.url
        == "http://127.0.0.1:5000/route/v1/driving/127,37.5;127.0113357,37.5089932"
        + "?overview=full&geometries=polyline6&steps=true&bearings=90,45;")
    let walking = provider.httpRequest(
      for: RouteRequest(origin: origin, course: nil, destination: destination, mode: .walking))
    #expect(
      walking.url
        == "http://127.0.0.1:5000/route/v1/foot/127,37.5;127.0113357,37.5089932?overview=full&geometries=polyline6&steps=true"
    )
  }

  @Test func tinyAndNegativeDegreesAreNeverWrittenWithAnExponent() {
    let provider = OSRMProvider(baseURL: "http://h")
    let request = provider.httpRequest(
      for: RouteRequest(
        origin: GeoCoordinate(latitude: -0.000_012_3, longitude: 0.000_000_01), course: nil,
        destination: GeoCoordinate(latitude: -33.868_8, longitude: -151.209_3), mode: .driving))
    #expect(request.url.hasPrefix("http://h/route/v1/driving/0,-0.0000123;-151.2093,-33.8688?"))
  }

  @Test func anInvalidCoordinateIsRefusedWithoutAsking() {
    let provider = ValhallaProvider(baseURL: "http://127.0.0.1:1")
    let result = provider.route(
      for: RouteRequest(
        origin: GeoCoordinate(latitude: .nan, longitude: 0), course: nil, destination: destination, mode: .driving))
    #expect(result == .failure(RouteFailure(.noRoute, "valhalla: the origin or destination is not a valid coordinate")))
  }
}
