/// How a route is travelled, as the wire spells it (the Guidance module's `TravelMode`
/// has the same raw values; the protocol does not depend on it).
public enum WireTravelMode: String, Sendable, Hashable, Codable, CaseIterable {
  case driving
  case walking
}
