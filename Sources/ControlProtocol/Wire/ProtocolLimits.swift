/// The fixed numbers of the control protocol, shared by server and client so the two can
/// never disagree about them.
public enum ControlProtocolLimits {
  /// The only protocol version this build speaks. A request with another one is refused
  /// rather than guessed at, so an old client against a new daemon fails loudly.
  public static let version = 1
  /// The longest request line, newline excluded. A longer line is an error and the
  /// connection is closed: the daemon never buffers without bound for one client.
  public static let maximumLineLength = 64 * 1024
  /// The largest fleet command (an MQTT message on the command topic): room for a route
  /// sent inline as GeoJSON or GPX. A larger one is refused unread (`too_large`).
  public static let maximumCommandSize = 1024 * 1024
}
