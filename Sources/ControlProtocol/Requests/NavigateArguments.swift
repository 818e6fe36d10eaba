/// `navigate`: where to, and how; the daemon asks its route provider for the way.
public struct NavigateArguments: Sendable, Hashable {
  public var destination: WireCoordinate
  public var mode: WireTravelMode

  public init(destination: WireCoordinate, mode: WireTravelMode) {
    self.destination = destination
    self.mode = mode
  }
}
