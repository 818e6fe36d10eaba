/// Where boxes publish and what the office subscribes to. The boxes' `TopicPrefix` is
/// `dashpilot/VEHICLE` by default; the office's pattern is that prefix with `+` where the
/// vehicle stands (`dashpilot/+`), and each kind of message is one more level.
public struct BoxTopics: Sendable, Hashable {
  /// The kinds the office stores, by their topic's last level.
  public enum Kind: String, Sendable, Hashable, CaseIterable {
    case samples, shift, session, stop, events, status

    /// The schema a payload on this topic carries.
    public var schema: String {
      switch self {
      case .samples: "dashpilot.samples/1"
      case .shift: "dashpilot.shift/1"
      case .session: "dashpilot.session/1"
      case .stop: "dashpilot.stop/1"
      case .events: "dashpilot.event/1"
      case .status: "dashpilot.status/1"
      }
    }
  }

  public let pattern: String
  private let levels: [Substring]
  private let vehicleLevel: Int

  public struct Invalid: Error, Sendable, Hashable, CustomStringConvertible {
    public var description: String
  }

  /// `pattern` must hold exactly one `+`, a whole level, for the vehicle, and no `#`.
  public init(pattern: String) throws(Invalid) {
    let levels = pattern.split(separator: "/", omittingEmptySubsequences: false)
    let pluses = levels.indices.filter { levels[$0] == "+" }
    guard pluses.count == 1, !pattern.contains("#"), !levels.contains(where: { $0.isEmpty }),
      levels.allSatisfy({ $0 == "+" || !$0.contains("+") })
    else {
      throw Invalid(
        description: "\"\(pattern)\" must be the boxes' TopicPrefix with one whole level \"+\" for the vehicle, "
          + "such as dashpilot/+ (no #, no empty level)")
    }
    self.pattern = pattern
    self.levels = levels
    vehicleLevel = pluses[0]
  }

  /// The shared subscription's filters: one per kind, `$share/GROUP/PATTERN/KIND`.
  public func sharedFilters(group: String) -> [String] {
    Kind.allCases.map { "$share/\(group)/\(pattern)/\($0.rawValue)" }
  }

  /// The vehicle and kind a topic names; nil for a topic outside the pattern.
  public func match(_ topic: String) -> (vehicle: String, kind: Kind)? {
    let parts = topic.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count == levels.count + 1, let kind = Kind(rawValue: String(parts[parts.count - 1])) else {
      return nil
    }
    for (index, level) in levels.enumerated() where index != vehicleLevel && parts[index] != level {
      return nil
    }
    let vehicle = parts[vehicleLevel]
    return vehicle.isEmpty ? nil : (String(vehicle), kind)
  }

  /// The vehicle level of a topic that does not match, as well as it can be read (for the
  /// `rejected` row's key): the level where the pattern has `+`, else "".
  public func vehicleLevel(of topic: String) -> String {
    let parts = topic.split(separator: "/", omittingEmptySubsequences: false)
    return vehicleLevel < parts.count ? String(parts[vehicleLevel]) : ""
  }
}
