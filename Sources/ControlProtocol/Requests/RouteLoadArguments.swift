/// `route.load`: a route to follow: coordinates, sent in parts like an import, or the
/// whole text of a route file (`inline`, never in parts; `coordinates` is then empty).
public struct RouteLoadArguments: Sendable, Hashable {
  public var name: String?
  public var mode: WireTravelMode
  public var coordinates: [WireCoordinate]
  public var more: Bool
  public var inline: InlineRoute?

  public init(
    name: String? = nil, mode: WireTravelMode, coordinates: [WireCoordinate], more: Bool = false,
    inline: InlineRoute? = nil
  ) {
    self.name = name
    self.mode = mode
    self.coordinates = coordinates
    self.more = more
    self.inline = inline
  }
}

extension RouteLoadArguments: MultiPartArguments {
  public var elements: [WireCoordinate] {
    get { coordinates }
    set { coordinates = newValue }
  }
  public static var elementsName: String { "coordinates" }
  public func mismatch(with part: RouteLoadArguments) -> String? {
    // A route file's text comes whole (the parser refuses it with `more`), so it can only
    // be a stray after coordinates sent in parts, not one of them.
    if let inline = part.inline {
      return "a route sent as \"\(inline.format.rawValue)\" cannot continue coordinates sent in parts"
    }
    return part.mode == mode ? nil : "a part changed the mode from \(mode.rawValue) to \(part.mode.rawValue)"
  }
  public var command: ControlCommand { .routeLoad(self) }
}
