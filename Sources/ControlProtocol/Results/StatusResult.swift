import FoundationEssentials

/// What `status` answers. Every section is present; what a component has not reported
/// (or is not plugged into this build) is an explicit null rather than a missing key, so
/// a script can tell "unknown" from a typo.
public struct StatusResult: Sendable, Hashable, Codable {
  public var daemon: DaemonSection
  public var gpsd: GPSDSection
  public var capture: CaptureSection
  /// Null when no shift is open.
  public var shift: ShiftSummary?
  /// Null when no route is followed.
  public var guidance: GuidanceSection?
  public var store: StoreSection
  /// The fleet uplink; absent when the daemon has no `[Uplink]` section.
  public var uplink: UplinkSection?

  public init(
    daemon: DaemonSection, gpsd: GPSDSection, capture: CaptureSection, shift: ShiftSummary?,
    guidance: GuidanceSection?, store: StoreSection, uplink: UplinkSection? = nil
  ) {
    self.uplink = uplink
    self.daemon = daemon
    self.gpsd = gpsd
    self.capture = capture
    self.shift = shift
    self.guidance = guidance
    self.store = store
  }

  public func encode(to encoder: Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(daemon, forKey: .daemon)
    try container.encode(gpsd, forKey: .gpsd)
    try container.encode(capture, forKey: .capture)
    try container.encode(shift, forKey: .shift)
    try container.encode(guidance, forKey: .guidance)
    try container.encode(store, forKey: .store)
    try container.encodeIfPresent(uplink, forKey: .uplink)
  }

  enum CodingKeys: String, CodingKey { case daemon, gpsd, capture, shift, guidance, store, uplink }
}

/// The fleet uplink's state: whether the broker is connected, what waits in the outbox,
/// and the last thing that went wrong.
public struct UplinkSection: Sendable, Hashable, Codable {
  /// "host:port" of the broker.
  public var broker: String
  public var connected: Bool
  public var outboxDepth: Int
  /// Seconds since the oldest unsent entry was queued; null when the outbox is empty.
  public var oldestUnsentAgeSeconds: Double?
  public var inFlight: Int
  public var lastError: String?
  /// The one line `dashpilotctl status` shows.
  public var summary: String
  /// The fleet's command channel; absent from a daemon older than it.
  public var commands: CommandChannelSection?

  public init(
    broker: String, connected: Bool, outboxDepth: Int, oldestUnsentAgeSeconds: Double?, inFlight: Int,
    lastError: String?, summary: String, commands: CommandChannelSection? = nil
  ) {
    self.broker = broker
    self.connected = connected
    self.outboxDepth = outboxDepth
    self.oldestUnsentAgeSeconds = oldestUnsentAgeSeconds
    self.inFlight = inFlight
    self.lastError = lastError
    self.summary = summary
    self.commands = commands
  }

  public func encode(to encoder: Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(broker, forKey: .broker)
    try container.encode(connected, forKey: .connected)
    try container.encode(outboxDepth, forKey: .outboxDepth)
    try container.encode(oldestUnsentAgeSeconds, forKey: .oldestUnsentAgeSeconds)
    try container.encode(inFlight, forKey: .inFlight)
    try container.encode(lastError, forKey: .lastError)
    try container.encode(summary, forKey: .summary)
    try container.encodeIfPresent(commands, forKey: .commands)
  }

  enum CodingKeys: String, CodingKey {
    case broker, connected, commands
    case outboxDepth = "outbox_depth"
    case oldestUnsentAgeSeconds = "oldest_unsent_age_seconds"
    case inFlight = "in_flight"
    case lastError = "last_error"
    case summary
  }
}

public struct DaemonSection: Sendable, Hashable, Codable {
  public var version: String
  public var pid: Int32
  public var startedAt: Date
  public var uptimeSeconds: Double
  public var socket: String
  /// The configuration file read at start-up, null when the defaults were used.
  public var config: String?
  /// "running", or "stopping" once SIGTERM arrived.
  public var state: String
  /// The configured display unit ("miles" or "kilometres"), for figures status shows.
  public var units: String

  public init(
    version: String, pid: Int32, startedAt: Date, uptimeSeconds: Double, socket: String,
    config: String?, state: String, units: String
  ) {
    self.version = version
    self.pid = pid
    self.startedAt = startedAt
    self.uptimeSeconds = uptimeSeconds
    self.socket = socket
    self.config = config
    self.state = state
    self.units = units
  }

  public func encode(to encoder: Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(version, forKey: .version)
    try container.encode(pid, forKey: .pid)
    try container.encode(startedAt, forKey: .startedAt)
    try container.encode(uptimeSeconds, forKey: .uptimeSeconds)
    try container.encode(socket, forKey: .socket)
    try container.encode(config, forKey: .config)
    try container.encode(state, forKey: .state)
    try container.encode(units, forKey: .units)
  }

  enum CodingKeys: String, CodingKey {
    case version, pid, socket, config, state, units
    case startedAt = "started_at"
    case uptimeSeconds = "uptime_seconds"
  }
}

public struct GPSDSection: Sendable, Hashable, Codable {
  /// HOST:PORT the daemon reads from.
  public var address: String
  public var connected: Bool
  /// The receiver's path as gpsd names it (`/dev/ttyACM0`), null when none is active.
  public var device: String?
  /// "none", "2d" or "3d"; null before the first report.
  public var fixMode: String?
  /// Horizontal error of the latest fix in metres, null when unknown.
  public var accuracyMetres: Double?
  public var lastFixAt: Date?

  public init(
    address: String, connected: Bool = false, device: String? = nil, fixMode: String? = nil,
    accuracyMetres: Double? = nil, lastFixAt: Date? = nil
  ) {
    self.address = address
    self.connected = connected
    self.device = device
    self.fixMode = fixMode
    self.accuracyMetres = accuracyMetres
    self.lastFixAt = lastFixAt
  }

  public func encode(to encoder: Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(address, forKey: .address)
    try container.encode(connected, forKey: .connected)
    try container.encode(device, forKey: .device)
    try container.encode(fixMode, forKey: .fixMode)
    try container.encode(accuracyMetres, forKey: .accuracyMetres)
    try container.encode(lastFixAt, forKey: .lastFixAt)
  }

  enum CodingKeys: String, CodingKey {
    case address, connected, device
    case fixMode = "fix_mode"
    case accuracyMetres = "accuracy_m"
    case lastFixAt = "last_fix_at"
  }
}

public struct CaptureSection: Sendable, Hashable, Codable {
  /// The current capture session's id, null between sessions.
  public var session: String?
  public var sessionStartedAt: Date?
  /// Fixes kept in this session; null until capture is plugged in.
  public var accepted: Int?
  /// Fixes refused in this session, by reason (`no_fix`, `stale`, ...); null until capture
  /// is plugged in.
  public var rejected: [String: Int]?
  /// Of the kept: held samples (the vehicle stood still), and samples whose accuracy was
  /// assumed because the receiver reports no error estimate.
  public var held: Int?
  public var accuracyAssumed: Int?

  public init(
    session: String? = nil, sessionStartedAt: Date? = nil, accepted: Int? = nil, rejected: [String: Int]? = nil,
    held: Int? = nil, accuracyAssumed: Int? = nil
  ) {
    self.session = session
    self.sessionStartedAt = sessionStartedAt
    self.accepted = accepted
    self.rejected = rejected
    self.held = held
    self.accuracyAssumed = accuracyAssumed
  }

  public func encode(to encoder: Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(session, forKey: .session)
    try container.encode(sessionStartedAt, forKey: .sessionStartedAt)
    try container.encode(accepted, forKey: .accepted)
    try container.encode(rejected, forKey: .rejected)
    try container.encode(held, forKey: .held)
    try container.encode(accuracyAssumed, forKey: .accuracyAssumed)
  }

  enum CodingKeys: String, CodingKey {
    case session, accepted, rejected, held
    case sessionStartedAt = "session_started_at"
    case accuracyAssumed = "accuracy_assumed"
  }
}

public struct GuidanceSection: Sendable, Hashable, Codable {
  public var mode: String
  /// "waiting_for_fix", "following", "off_route" or "arrived".
  public var phase: String
  public var distanceRemainingMetres: Double?
  /// A sentence about rerouting, when one is pending or failed.
  public var reroute: String?
  /// Metres along the route of the last on-route fix.
  public var distanceAlongMetres: Double?
  /// Where the route leads (a loaded route's end).
  public var destination: WireCoordinate?
  /// "file", or the provider that planned the route.
  public var source: String?

  public init(
    mode: String, phase: String, distanceRemainingMetres: Double? = nil, reroute: String? = nil,
    distanceAlongMetres: Double? = nil, destination: WireCoordinate? = nil, source: String? = nil
  ) {
    self.mode = mode
    self.phase = phase
    self.distanceRemainingMetres = distanceRemainingMetres
    self.reroute = reroute
    self.distanceAlongMetres = distanceAlongMetres
    self.destination = destination
    self.source = source
  }

  public func encode(to encoder: Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(mode, forKey: .mode)
    try container.encode(phase, forKey: .phase)
    try container.encode(distanceRemainingMetres, forKey: .distanceRemainingMetres)
    try container.encode(reroute, forKey: .reroute)
    try container.encode(distanceAlongMetres, forKey: .distanceAlongMetres)
    try container.encode(destination, forKey: .destination)
    try container.encode(source, forKey: .source)
  }

  enum CodingKeys: String, CodingKey {
    case mode, phase, reroute, destination, source
    case distanceRemainingMetres = "distance_remaining_m"
    case distanceAlongMetres = "distance_along_m"
  }
}

public struct StoreSection: Sendable, Hashable, Codable {
  public var path: String
  /// Whether the last write succeeded; null until the store is plugged in.
  public var ok: Bool?
  public var lastError: String?
  /// Retention's figures (null until known): room left for recording (the file system's
  /// free space and the file's free pages), the last 7 days' rate, days of recording left at
  /// it, the free-space floor, `[Store] KeepDays=` (null: forever), and the sentence that
  /// says it.
  public var freeBytes: Int64?
  public var bytesPerDay: Int64?
  public var daysLeft: Double?
  public var freeSpaceFloorBytes: Int64?
  public var keepDays: Int?
  public var outlook: String?

  public init(path: String, ok: Bool? = nil, lastError: String? = nil) {
    self.path = path
    self.ok = ok
    self.lastError = lastError
  }

  public func encode(to encoder: Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(path, forKey: .path)
    try container.encode(ok, forKey: .ok)
    try container.encode(lastError, forKey: .lastError)
    try container.encode(freeBytes, forKey: .freeBytes)
    try container.encode(bytesPerDay, forKey: .bytesPerDay)
    try container.encode(daysLeft, forKey: .daysLeft)
    try container.encode(freeSpaceFloorBytes, forKey: .freeSpaceFloorBytes)
    try container.encode(keepDays, forKey: .keepDays)
    try container.encode(outlook, forKey: .outlook)
  }

  enum CodingKeys: String, CodingKey {
    case path, ok, outlook
    case lastError = "last_error"
    case freeBytes = "free_bytes"
    case bytesPerDay = "bytes_per_day"
    case daysLeft = "days_left"
    case freeSpaceFloorBytes = "free_space_floor_bytes"
    case keepDays = "keep_days"
  }
}
