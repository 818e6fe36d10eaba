/// What PostgreSQL or libpq said went wrong, with the SQLSTATE when the server gave one.
public struct PostgresError: Error, Sendable, Hashable, CustomStringConvertible {
  public var sqlState: String?
  public var message: String
  /// The connection is gone (server stopped, restarted or unreachable): reconnect.
  public var connectionLost: Bool

  public init(sqlState: String?, message: String, connectionLost: Bool) {
    self.sqlState = sqlState
    self.message = message
    self.connectionLost = connectionLost
  }

  public var description: String { sqlState.map { "\(message) (SQLSTATE \($0))" } ?? message }

  /// Class 53: the server is out of a resource (53100 disk full, 53200 memory, 53300
  /// connections): nothing to do but wait and try again.
  public var isResourceShortage: Bool { sqlState?.hasPrefix("53") ?? false }

  /// 57P01-57P03: the server is shutting down, or cannot take connections yet (starting,
  /// recovering); 08: the connection failed. Both heal by reconnecting.
  public var isServerUnavailable: Bool {
    connectionLost || (sqlState.map { $0.hasPrefix("57P") || $0.hasPrefix("08") } ?? false)
  }

  /// Class 22 (data exception) and 23 (integrity): the rows themselves, not the server.
  public var isRefusalOfData: Bool {
    sqlState.map { $0.hasPrefix("22") || $0.hasPrefix("23") } ?? false
  }

  /// 40001 (serialization) and 40P01 (deadlock): the transaction may simply be retried.
  public var isTransient: Bool { sqlState == "40001" || sqlState == "40P01" }
}
