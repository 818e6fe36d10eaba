import FoundationEssentials

public struct ControlServerLimits: Sendable, Hashable {
  public var maximumClients: Int
  public var idleTimeout: TimeInterval
  /// A follower of `events` whose unread output passes this is disconnected: a client
  /// that stops reading must not make the daemon hold its stream without bound.
  public var maximumFollowerBacklog = 1 << 20
  /// A client whose unread answers pass this is not read from until it catches up, so a
  /// client that pipelines requests without reading cannot grow the daemon's memory.
  public var maximumPendingAnswers = 1 << 20
  /// The next part of an answer in parts is made once a client's unread output is at most
  /// this: a few parts in flight keep the socket busy, and a slow client holds no more.
  public var maximumPartBacklog = 256 * 1024
  /// The most points one multi-part `import` or `route load` may assemble.
  public var maximumAssembledPoints = 1_000_000

  public init(maximumClients: Int, idleTimeout: TimeInterval) {
    self.maximumClients = maximumClients
    self.idleTimeout = idleTimeout
  }
}
