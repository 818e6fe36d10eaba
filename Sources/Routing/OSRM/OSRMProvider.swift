import DashPilotCore
import Guidance

/// Routes from an OSRM server (`GET /route/v1/{profile}/lon,lat;lon,lat`). The car's course,
/// when the request has one, goes in `bearings` for the origin only. `steps=true` is asked
/// for because each step names its travel mode: `osrm-routed` serves the one profile it was
/// started with whatever the URL says, so the steps are the only way to notice a car
/// server answering a walking request (refused as `mismatchedProvider`).
public struct OSRMProvider: RouteProvider {
  public let name = "osrm"
  /// Where the server listens, e.g. `http://127.0.0.1:5000`.
  public var baseURL: String
  public var drivingProfile: String
  public var walkingProfile: String
  /// How far, in degrees, the first segment may point from the car's course.
  public var bearingRange: Int
  private let client: any HTTPClient

  public init(
    baseURL: String, drivingProfile: String = "driving", walkingProfile: String = "foot", bearingRange: Int = 45,
    client: any HTTPClient = CurlHTTPClient()
  ) {
    self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
    self.drivingProfile = drivingProfile
    self.walkingProfile = walkingProfile
    self.bearingRange = bearingRange
    self.client = client
  }

  public func httpRequest(for request: RouteRequest) -> HTTPRequest {
    let profile = request.mode == .driving ? drivingProfile : walkingProfile
    let coordinates =
      "\(DegreesText.of(request.origin.longitude)),\(DegreesText.of(request.origin.latitude));"
      + "\(DegreesText.of(request.destination.longitude)),\(DegreesText.of(request.destination.latitude))"
    var url = "\(baseURL)/route/v1/\(profile)/\(coordinates)?overview=full&geometries=polyline6&steps=true"
    if let course = request.course, course.isFinite {
      let bearing = Int(GeographicDistance.normalizedDegrees(course).rounded()) % 360
      // One entry per coordinate; the destination's is left empty (any approach).
      url += "&bearings=\(bearing),\(bearingRange);"
    }
    return HTTPRequest(method: .get, url: url)
  }

  public func route(for request: RouteRequest) -> Result<PlannedRoute, RouteFailure> {
    guard request.origin.isValid, request.destination.isValid else {
      return .failure(RouteFailure(.noRoute, "\(name): the origin or destination is not a valid coordinate"))
    }
    switch client.send(httpRequest(for: request)) {
    case .failure(let error): return .failure(RouteFailureMapping.failure(for: error, provider: name))
    case .success(let response): return OSRMAnswer.interpret(response, for: request)
    }
  }
}
