/// What the MQTT connection reports to its owner, delivered on the owner's queue in the
/// order libmosquitto's network thread saw it.
public enum MQTTEvent: Sendable, Hashable {
  /// The broker accepted the connection (CONNACK 0).
  case connected
  /// The broker answered but refused: a wrong password, an unknown client, ...
  case refused(reason: String)
  /// A connection could not be made: no route, refused, a failed name lookup or TLS
  /// handshake. The publisher keeps retrying with back-off.
  case connectFailed(reason: String)
  /// An established connection was lost; libmosquitto reconnects by itself.
  case disconnected(reason: String)
  /// The broker acknowledged the message with this id (PUBACK for QoS 1, PUBCOMP for
  /// QoS 2; for QoS 0, the message was written to the socket).
  case acknowledged(messageID: Int32)
  /// A message on the command topic.
  case message(InboundCommand)
}

/// A publish libmosquitto would not take.
public struct MQTTError: Error, Sendable, Hashable, CustomStringConvertible {
  public var operation: String
  public var reason: String

  public var description: String { "uplink: \(operation) failed: \(reason)" }
}
