import DashPilotCore
import Guidance

/// Routes from a Valhalla server (`POST /route`). Driving uses costing `auto`, walking
/// `pedestrian`; the car's course, when the request has one, becomes the origin's `heading`
/// with a tolerance, so the new route need not begin with a U-turn.
public struct ValhallaProvider: RouteProvider {
  public let name = "valhalla"
  /// Where the server listens, e.g. `http://127.0.0.1:8002`.
  public var baseURL: String
  /// How far, in degrees, the first edge may point from the car's course.
  public var headingTolerance: Int
  private let client: any HTTPClient

  public init(baseURL: String, headingTolerance: Int = 45, client: any HTTPClient = CurlHTTPClient()) {
    self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
    self.headingTolerance = headingTolerance
    self.client = client
  }

  public static func costing(for mode: TravelMode) -> String {
    switch mode {
    case .driving: "auto"
    case .walking: "pedestrian"
    }
  }

  /// The exact request sent for a route request.
  public func httpRequest(for request: RouteRequest) -> HTTPRequest {
    var origin =
      "{\"lat\":\(DegreesText.of(request.origin.latitude)),\"lon\":\(DegreesText.of(request.origin.longitude))"
    if let course = request.course, course.isFinite {
      let heading = Int(GeographicDistance.normalizedDegrees(course).rounded()) % 360
      origin += ",\"heading\":\(heading),\"heading_tolerance\":\(headingTolerance)"
    }
    origin += "}"
    let destination =
      "{\"lat\":\(DegreesText.of(request.destination.latitude)),\"lon\":\(DegreesText.of(request.destination.longitude))}"
    let body =
      "{\"locations\":[\(origin),\(destination)],\"costing\":\"\(Self.costing(for: request.mode))\","
      + "\"directions_options\":{\"units\":\"kilometers\"}}"
    return HTTPRequest(
      method: .post, url: baseURL + "/route", headers: ["Content-Type: application/json"], body: Array(body.utf8))
  }

  public func route(for request: RouteRequest) -> Result<PlannedRoute, RouteFailure> {
    guard request.origin.isValid, request.destination.isValid else {
      return .failure(RouteFailure(.noRoute, "\(name): the origin or destination is not a valid coordinate"))
    }
    switch client.send(httpRequest(for: request)) {
    case .failure(let error): return .failure(RouteFailureMapping.failure(for: error, provider: name))
    case .success(let response): return ValhallaAnswer.interpret(response, for: request)
    }
  }
}
