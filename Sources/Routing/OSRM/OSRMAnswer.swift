import DashPilotCore
import Guidance

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Reads what OSRM answered (the `code` of the HTTP API docs, api/http.md), and maps its
/// failures into the seed's taxonomy.
public enum OSRMAnswer {
  public static func interpret(_ response: HTTPResponse, for request: RouteRequest) -> Result<
    PlannedRoute, RouteFailure
  > {
    let provider = "osrm"
    if let failure = RouteFailureMapping.failure(forGatewayStatus: response.status, provider: provider) {
      return .failure(failure)
    }
    guard let answer = try? JSONDecoder().decode(Body.self, from: Data(response.body)) else {
      return .failure(
        RouteFailureMapping.failure(forUnexplainedStatus: response.status, provider: provider, body: response.body))
    }
    if answer.trip != nil || answer.errorCode != nil {
      return .failure(RouteFailure(.mismatchedProvider, "\(provider): the answer is Valhalla's, not OSRM's"))
    }
    guard let code = answer.code else {
      return .failure(
        RouteFailureMapping.failure(forUnexplainedStatus: response.status, provider: provider, body: response.body))
    }
    guard code == "Ok" else {
      return .failure(
        RouteFailure(
          kind(forCode: code), "\(provider): HTTP \(response.status), \(code): \(answer.message ?? "no message")"))
    }
    guard let route = answer.routes?.first else {
      return .failure(RouteFailure(.noRoute, "\(provider): Ok but no route"))
    }
    let allowed = allowedModes(for: request.mode)
    let modes = Set((route.legs ?? []).flatMap { $0.steps ?? [] }.compactMap(\.mode))
    if let other = modes.subtracting(allowed).sorted().first {
      return .failure(
        RouteFailure(
          .mismatchedProvider, "\(provider): answered with mode \(other) for a \(request.mode.rawValue) request"))
    }
    guard let geometry = route.geometry, let coordinates = Polyline.decode(geometry, precision: 6) else {
      return .failure(RouteFailure(.unreadableResponse, "\(provider): the route has no readable polyline6 geometry"))
    }
    guard coordinates.count >= 2 else {
      return .failure(RouteFailure(.unreadableResponse, "\(provider): the route has \(coordinates.count) points"))
    }
    return .success(PlannedRoute(coordinates: coordinates, provider: provider, mode: request.mode))
  }

  /// The step modes each profile of OSRM's own profiles (car.lua, foot.lua) produces.
  static func allowedModes(for mode: TravelMode) -> Set<String> {
    switch mode {
    case .driving: ["driving", "ferry"]
    case .walking: ["walking", "ferry"]
    }
  }

  /// - `NoRoute`, `NoSegment` (no road near a coordinate: like Valhalla's 171, it depends on
  ///   where the car is): `noRoute`, transient.
  /// - `TooBig`: a service limit, `unsupportedRegionOrMode`, permanent.
  /// - `InvalidUrl`, `InvalidService`, `InvalidVersion`, `InvalidOptions`, `InvalidQuery`,
  ///   `InvalidValue`, `NotImplemented`: the server does not accept the OSRM request this
  ///   client sends (a different API or version, or a profile it does not serve):
  ///   `mismatchedProvider`, permanent.
  /// - `DisabledDataset` and anything unknown: `unavailable`, transient.
  public static func kind(forCode code: String) -> RouteFailure.Kind {
    switch code {
    case "NoRoute", "NoSegment": .noRoute
    case "TooBig": .unsupportedRegionOrMode
    case "InvalidUrl", "InvalidService", "InvalidVersion", "InvalidOptions", "InvalidQuery", "InvalidValue",
      "NotImplemented":
      .mismatchedProvider
    default: .unavailable
    }
  }

  private struct Body: Decodable {
    var code: String?
    var message: String?
    var routes: [Route]?
    // Valhalla's markers, to recognise an answer from the wrong engine.
    var trip: Ignored?
    var errorCode: Int?

    enum CodingKeys: String, CodingKey {
      case code, message, routes, trip
      case errorCode = "error_code"
    }
  }

  private struct Route: Decodable {
    var geometry: String?
    var legs: [Leg]?
  }

  private struct Leg: Decodable {
    var steps: [Step]?
  }

  private struct Step: Decodable {
    var mode: String?
  }
}
