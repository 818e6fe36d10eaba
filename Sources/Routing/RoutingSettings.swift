import Guidance

/// Which engine the daemon asks for routes, where, and how long it waits: what the config's
/// routing section holds, checked once at start-up so the daemon never starts with a
/// provider it cannot use.
public struct RoutingSettings: Sendable, Hashable {
  public enum Engine: String, Sendable, Hashable, CaseIterable {
    case valhalla
    case osrm
  }

  public var engine: Engine
  /// `http://host:port` or `https://host:port`, optionally with a path prefix.
  public var baseURL: String
  public var connectTimeoutMilliseconds: Int
  public var totalTimeoutMilliseconds: Int
  /// Valhalla's `heading_tolerance`, OSRM's bearing range, in degrees.
  public var headingTolerance: Int

  /// Refuses what would only fail later, each with a sentence naming the value.
  public init(
    engine: String, baseURL: String, connectTimeoutMilliseconds: Int = 2_000, totalTimeoutMilliseconds: Int = 10_000,
    headingTolerance: Int = 45
  ) throws(RoutingSettingsError) {
    guard let parsed = Engine(rawValue: engine.lowercased()) else {
      throw RoutingSettingsError("unknown routing provider \"\(engine)\" (expected valhalla or osrm)")
    }
    let lower = baseURL.lowercased()
    let rest: Substring
    if lower.hasPrefix("http://") {
      rest = baseURL.dropFirst(7)
    } else if lower.hasPrefix("https://") {
      rest = baseURL.dropFirst(8)
    } else {
      throw RoutingSettingsError("routing URL \"\(baseURL)\" must start with http:// or https://")
    }
    let host = rest.prefix { $0 != "/" && $0 != ":" }
    guard !host.isEmpty, !rest.contains(" "), !rest.contains("?"), !rest.contains("#") else {
      throw RoutingSettingsError("routing URL \"\(baseURL)\" has no host, or holds a space, query or fragment")
    }
    guard connectTimeoutMilliseconds > 0, totalTimeoutMilliseconds >= connectTimeoutMilliseconds else {
      throw RoutingSettingsError(
        "routing timeouts must be positive and the total (\(totalTimeoutMilliseconds) ms) at least the connect timeout (\(connectTimeoutMilliseconds) ms)"
      )
    }
    guard (1...180).contains(headingTolerance) else {
      throw RoutingSettingsError("heading tolerance \(headingTolerance) must be between 1 and 180 degrees")
    }
    self.engine = parsed
    self.baseURL = baseURL
    self.connectTimeoutMilliseconds = connectTimeoutMilliseconds
    self.totalTimeoutMilliseconds = totalTimeoutMilliseconds
    self.headingTolerance = headingTolerance
  }

  /// The provider these settings describe, over libcurl.
  public func makeProvider() -> any RouteProvider {
    let client = CurlHTTPClient(
      connectTimeoutMilliseconds: connectTimeoutMilliseconds, totalTimeoutMilliseconds: totalTimeoutMilliseconds)
    switch engine {
    case .valhalla: return ValhallaProvider(baseURL: baseURL, headingTolerance: headingTolerance, client: client)
    case .osrm: return OSRMProvider(baseURL: baseURL, bearingRange: headingTolerance, client: client)
    }
  }
}

public struct RoutingSettingsError: Error, Sendable, Hashable, CustomStringConvertible {
  public var description: String

  public init(_ description: String) { self.description = description }
}
