/// `navigate`: where to, and how; the daemon asks its route provider for the way. `name`,
/// when given, is what the destination is called (a job's name): the driver hears it when
/// the route is planned and on arrival.
public struct NavigateArguments: Sendable, Hashable {
  public var destination: WireCoordinate
  public var mode: WireTravelMode
  public var name: String?

  public init(destination: WireCoordinate, mode: WireTravelMode, name: String? = nil) {
    self.destination = destination
    self.mode = mode
    self.name = name
  }
}
