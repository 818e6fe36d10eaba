import DashPilotCore
import FoundationEssentials

/// What `dashpilot-officed status` says: how far behind the office is, how fast it stores,
/// the holes in the boxes' sequences, what it refused, and each worker. A value read from
/// the database (every age already measured there, on its clock), worded here.
public struct OfficeStatusReport: Sendable, Hashable {
  public struct Worker: Sendable, Hashable {
    public var index: Int
    public var host: String
    public var pid: Int
    public var clientID: String
    public var brokerConnected: Bool
    public var heartbeatAge: Double
    public var messages: Int64
    public var samples: Int64
    public var rejected: Int64
    public var messagesPerSecond: Double
    public var samplesPerSecond: Double
    public var lastCommitAge: Double?
    public var lag: Double?
    public var lastError: String?

    public init(
      index: Int, host: String, pid: Int, clientID: String, brokerConnected: Bool, heartbeatAge: Double,
      messages: Int64, samples: Int64, rejected: Int64, messagesPerSecond: Double, samplesPerSecond: Double,
      lastCommitAge: Double?, lag: Double?, lastError: String?
    ) {
      self.index = index
      self.host = host
      self.pid = pid
      self.clientID = clientID
      self.brokerConnected = brokerConnected
      self.heartbeatAge = heartbeatAge
      self.messages = messages
      self.samples = samples
      self.rejected = rejected
      self.messagesPerSecond = messagesPerSecond
      self.samplesPerSecond = samplesPerSecond
      self.lastCommitAge = lastCommitAge
      self.lag = lag
      self.lastError = lastError
    }

    /// A worker that wrote its row within the last 15 s (it does every 5 s at least).
    public var isAlive: Bool { heartbeatAge <= 15 }
  }

  public struct Holes: Sendable, Hashable {
    public var count: Int
    public var vehicles: Int
    public var missing: Int64
    public var oldestAge: Double?
    public init(count: Int, vehicles: Int, missing: Int64, oldestAge: Double?) {
      self.count = count
      self.vehicles = vehicles
      self.missing = missing
      self.oldestAge = oldestAge
    }
  }

  public struct Rejected: Sendable, Hashable {
    public var total: Int
    public var byCode: [String: Int]
    public var lastTopic: String?
    public var lastReason: String?
    public var lastAge: Double?
    public init(total: Int, byCode: [String: Int], lastTopic: String?, lastReason: String?, lastAge: Double?) {
      self.total = total
      self.byCode = byCode
      self.lastTopic = lastTopic
      self.lastReason = lastReason
      self.lastAge = lastAge
    }
  }

  public var schemaVersion: Int
  public var vehicles: Int
  /// PostgreSQL's estimate (its statistics), not a count: counting every sample would read them all.
  public var samplesEstimate: Int64
  public var shifts: Int
  /// Nil when the ledger was too long to read for them within the status's time.
  public var holes: Holes?
  public var rejected: Rejected
  public var workers: [Worker]

  public init(
    schemaVersion: Int, vehicles: Int, samplesEstimate: Int64, shifts: Int, holes: Holes?, rejected: Rejected,
    workers: [Worker]
  ) {
    self.schemaVersion = schemaVersion
    self.vehicles = vehicles
    self.samplesEstimate = samplesEstimate
    self.shifts = shifts
    self.holes = holes
    self.rejected = rejected
    self.workers = workers
  }

  public var alive: [Worker] { workers.filter(\.isAlive) }
  public var messagesPerSecond: Double { alive.reduce(0) { $0 + $1.messagesPerSecond } }
  public var samplesPerSecond: Double { alive.reduce(0) { $0 + $1.samplesPerSecond } }
  /// The worst lag among the workers alive: how old the newest data was when committed.
  public var lag: Double? { alive.compactMap(\.lag).max() }
}
