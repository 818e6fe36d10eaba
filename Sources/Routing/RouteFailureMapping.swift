import Guidance

/// What both engines share: transport errors and the HTTP statuses that gateways in front of
/// a hosted engine answer with, whatever the engine's own body format.
enum RouteFailureMapping {
  /// A dropped or timed-out exchange after connecting is `connectionDropped`; nothing
  /// listening, no name or no connection in time is `unavailable`. Both are transient.
  static func failure(for error: HTTPTransportError, provider: String) -> RouteFailure {
    let detail = "\(provider): \(error.message)"
    switch error.kind {
    case .refused, .unresolved, .connectTimedOut, .other: return RouteFailure(.unavailable, detail)
    case .timedOut, .reset: return RouteFailure(.connectionDropped, detail)
    case .tooLarge: return RouteFailure(.unreadableResponse, detail)
    }
  }

  /// Statuses that mean the same whatever the body says (and gateways rarely send the
  /// engine's JSON with them).
  static func failure(forGatewayStatus status: Int, provider: String) -> RouteFailure? {
    switch status {
    case 401: RouteFailure(.credentials, "\(provider): HTTP 401, credentials missing or rejected")
    case 403:
      RouteFailure(.permissionRestricted, "\(provider): HTTP 403, access refused (permission or IP restriction)")
    case 402, 429: RouteFailure(.quotaExhausted, "\(provider): HTTP \(status), quota exhausted")
    default: nil
    }
  }

  /// A status with no body the engine's format explains.
  static func failure(forUnexplainedStatus status: Int, provider: String, body: [UInt8]) -> RouteFailure {
    let excerpt = String(decoding: body.prefix(120), as: UTF8.self)
    if status >= 500 {
      return RouteFailure(.unavailable, "\(provider): HTTP \(status)" + (excerpt.isEmpty ? "" : " \(excerpt)"))
    }
    return RouteFailure(.unreadableResponse, "\(provider): HTTP \(status) with a body it could not read: \(excerpt)")
  }
}

/// Degrees as plain decimal text with at most seven places (about a centimetre): never in
/// exponent form, which URL parsers of routing engines refuse.
enum DegreesText {
  static func of(_ value: Double) -> String {
    let scaled = Int64((value * 10_000_000).rounded())
    let negative = scaled < 0
    let magnitude = negative ? -scaled : scaled
    let whole = magnitude / 10_000_000
    var fraction = String(magnitude % 10_000_000)
    fraction = String(repeating: "0", count: 7 - fraction.count) + fraction
    while fraction.hasSuffix("0") { fraction.removeLast() }
    return (negative ? "-" : "") + String(whole) + (fraction.isEmpty ? "" : "." + fraction)
  }
}
