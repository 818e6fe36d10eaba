import DashPilotCore
import Guidance

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Reads what Valhalla answered, and maps its failures into the seed's taxonomy. Every
/// mapping is tested against an answer recorded from a real Valhalla
/// (`Fixtures/routing/valhalla`).
public enum ValhallaAnswer {
  public static func interpret(_ response: HTTPResponse, for request: RouteRequest) -> Result<
    PlannedRoute, RouteFailure
  > {
    let provider = "valhalla"
    if let failure = RouteFailureMapping.failure(forGatewayStatus: response.status, provider: provider) {
      return .failure(failure)
    }
    guard let answer = try? JSONDecoder().decode(Body.self, from: Data(response.body)) else {
      return .failure(
        RouteFailureMapping.failure(forUnexplainedStatus: response.status, provider: provider, body: response.body))
    }
    if let code = answer.errorCode {
      let detail = "\(provider): HTTP \(response.status), error \(code): \(answer.error ?? "no message")"
      return .failure(RouteFailure(kind(forErrorCode: code), detail))
    }
    if answer.trip == nil, answer.code != nil || answer.routes != nil {
      return .failure(
        RouteFailure(
          .mismatchedProvider, "\(provider): the answer is OSRM's (code \(answer.code ?? "none")), not Valhalla's"))
    }
    guard response.status == 200, let trip = answer.trip else {
      return .failure(
        RouteFailureMapping.failure(forUnexplainedStatus: response.status, provider: provider, body: response.body))
    }
    guard trip.status ?? 0 == 0 else {
      return .failure(
        RouteFailure(.unreadableResponse, "\(provider): trip status \(trip.status ?? -1) \(trip.statusMessage ?? "")"))
    }
    let expectedMode = travelMode(for: request.mode)
    let modes = Set((trip.legs ?? []).flatMap { $0.maneuvers ?? [] }.compactMap(\.travelMode))
    if let other = modes.subtracting([expectedMode]).sorted().first {
      return .failure(
        RouteFailure(
          .mismatchedProvider, "\(provider): answered with travel mode \(other) for a \(request.mode.rawValue) request")
      )
    }
    var coordinates: [GeoCoordinate] = []
    for (index, leg) in (trip.legs ?? []).enumerated() {
      guard let shape = leg.shape, let points = Polyline.decode(shape, precision: 6) else {
        return .failure(RouteFailure(.unreadableResponse, "\(provider): leg \(index) has no readable shape"))
      }
      let skipJunction = !coordinates.isEmpty && points.first == coordinates.last
      coordinates.append(contentsOf: skipJunction ? points.dropFirst() : points[...])
    }
    guard coordinates.count >= 2 else {
      return .failure(RouteFailure(.unreadableResponse, "\(provider): the route has \(coordinates.count) points"))
    }
    return .success(PlannedRoute(coordinates: coordinates, provider: provider, mode: request.mode))
  }

  /// Valhalla's `travel_mode` for each of our modes.
  static func travelMode(for mode: TravelMode) -> String {
    switch mode {
    case .driving: "drive"
    case .walking: "pedestrian"
    }
  }

  /// Valhalla's error codes (valhalla/baldr/errorcode_util): 1xx come from the request and
  /// location search (loki), 4xx from path finding (thor), the rest from inside the engine.
  /// - 170 (unconnected regions), 171 (no suitable edges near a location), 172 (breakage
  ///   distance), 440-445 (no path): `noRoute`, transient. 171 is the one a car meets: it
  ///   depends on where the car is, and the car moves, so the next reroute from a new
  ///   position may succeed; the seed retries "no route" every 15 s, which costs one small
  ///   request, whereas a permanent failure would leave the driver without rerouting for the
  ///   rest of the drive after one fix in a car park.
  /// - 124-127 (no or unknown costing), 140-143 (mode combinations), 150-159 (service
  ///   limits: too far for this mode, too many locations): `unsupportedRegionOrMode`,
  ///   permanent: asking again the same way cannot change them.
  /// - other 100-169 (the request could not be parsed, unknown action): the server does not
  ///   speak the Valhalla route API this client sends: `mismatchedProvider`, permanent.
  /// - anything else (odin, tyr, unknown, 5xx): `unavailable`, transient.
  public static func kind(forErrorCode code: Int) -> RouteFailure.Kind {
    switch code {
    case 170...172, 440...445: .noRoute
    case 124...127, 140...143, 150...159: .unsupportedRegionOrMode
    case 100...169: .mismatchedProvider
    default: .unavailable
    }
  }

  private struct Body: Decodable {
    var trip: Trip?
    var errorCode: Int?
    var error: String?
    // OSRM's markers, to recognise an answer from the wrong engine.
    var code: String?
    var routes: [Ignored]?

    enum CodingKeys: String, CodingKey {
      case trip, error, code, routes
      case errorCode = "error_code"
    }
  }

  private struct Trip: Decodable {
    var status: Int?
    var statusMessage: String?
    var legs: [Leg]?

    enum CodingKeys: String, CodingKey {
      case status, legs
      case statusMessage = "status_message"
    }
  }

  private struct Leg: Decodable {
    var shape: String?
    var maneuvers: [Maneuver]?
  }

  private struct Maneuver: Decodable {
    var travelMode: String?

    enum CodingKeys: String, CodingKey { case travelMode = "travel_mode" }
  }
}

/// Any JSON value whose content does not matter.
struct Ignored: Decodable {
  init(from decoder: any Decoder) throws {}
}
