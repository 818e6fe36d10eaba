/// `report`: which shift, and the route to judge it against when the reader has one (the
/// daemon runs guidance's own confirmation over the shift's stored positions). A route
/// longer than a line holds is sent in parts, as `route load` sends one.
public struct ReportArguments: Sendable, Hashable {
  public var id: Int64
  public var mode: WireTravelMode
  /// Empty for a report without a route.
  public var route: [WireCoordinate]
  public var more: Bool

  public init(id: Int64, mode: WireTravelMode = .driving, route: [WireCoordinate] = [], more: Bool = false) {
    self.id = id
    self.mode = mode
    self.route = route
    self.more = more
  }
}

extension ReportArguments: MultiPartArguments {
  public var elements: [WireCoordinate] {
    get { route }
    set { route = newValue }
  }
  public static var elementsName: String { "route coordinates" }
  public func mismatch(with part: ReportArguments) -> String? {
    if part.id != id { return "a part changed the shift from \(id) to \(part.id)" }
    return part.mode == mode ? nil : "a part changed the mode from \(mode.rawValue) to \(part.mode.rawValue)"
  }
  public var command: ControlCommand { .report(self) }
}
