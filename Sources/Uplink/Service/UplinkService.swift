import DashPilotCore
import Dispatch
import FoundationEssentials
import PlatformSupport

/// Drains the outbox to the broker: publishes entries oldest first with a bounded number
/// in flight, removes each only when the broker acknowledged it, and pauses while there is
/// no connection.
///
/// Confined to `queue`, the owner's serial queue: every method must be called there, and
/// the publisher's events are handled there. The outbox's connection (its own to the
/// store's file) is used only on it.
///
/// After a (re)connection, everything still unacknowledged is published again from the
/// head of the outbox. The broker may then receive a message twice; that is what the
/// idempotency key is for. The alternative, trusting libmosquitto to resend its own
/// in-flight messages, would leave an entry stuck forever if it did not.
public final class UplinkService: @unchecked Sendable {
  // @unchecked: all state is confined to `queue` (checked with dispatchPrecondition).
  public let configuration: UplinkConfiguration
  public let outbox: OutboxDatabase
  public let queue: DispatchQueue
  public let maxInFlight: Int
  /// How long a published entry may wait for its acknowledgement, while connected, before
  /// everything unacknowledged is published again: the guard against a drain that would
  /// otherwise stall for good on an acknowledgement that never comes.
  public let acknowledgementTimeout: TimeInterval
  let clock: @Sendable () -> Date
  let log: @Sendable (UplinkLogLine) -> Void
  private let encoder: UplinkEncoder
  private(set) var publisher: MQTTPublisher?
  private var connected = false
  private var stopped = false
  /// Message id → outbox sequence and when it was published (the monotonic clock), for
  /// what is waiting for its acknowledgement.
  private var inFlight: [Int32: (sequence: Int64, at: Double)] = [:]
  /// The highest sequence handed to the publisher since the last (re)connection.
  private var lastDispatched: Int64 = 0
  private var lastError: String?
  private var lastAcknowledgedAt: Date?
  private var lastLiveAt: Date?
  private var lastLoggedFailure: String?
  /// Acknowledged sequences not yet deleted: acknowledgements come in bursts, and one
  /// DELETE per burst is one disk sync instead of one per message.
  private var acknowledgedSequences: [Int64] = []
  private var removalScheduled = false
  /// The fleet's commands, with `AcceptCommands=yes` (UplinkService+Commands).
  var intake: CommandIntake?
  var commandTally = CommandTally()
  let ledger = CommandLedger()
  let monotonicClock: @Sendable () -> Double
  /// Told of each new command to run, on this queue; the owner carries it to whoever runs it.
  public var onCommand: (@Sendable (AdmittedCommand) -> Void)?

  public init(
    configuration: UplinkConfiguration, outbox: OutboxDatabase, queue: DispatchQueue, maxInFlight: Int = 16,
    acknowledgementTimeout: TimeInterval = 60, clocks: Clocks = .system,
    log: @escaping @Sendable (UplinkLogLine) -> Void
  ) {
    self.configuration = configuration
    self.outbox = outbox
    self.queue = queue
    self.maxInFlight = max(1, maxInFlight)
    self.acknowledgementTimeout = acknowledgementTimeout
    clock = clocks.wall
    self.log = log
    monotonicClock = clocks.monotonic
    self.encoder = UplinkEncoder(vehicleID: configuration.vehicleID)
    if configuration.acceptCommands { intake = CommandIntake(allowed: configuration.allowedCommands) }
  }

  /// Reads the password file, creates the MQTT client and starts connecting. A failure
  /// here (an unreadable password or CA file) is returned as an error and kept as the
  /// status's last error; capture is never affected.
  public func start() throws(MQTTError) {
    dispatchPrecondition(condition: .onQueue(queue))
    guard publisher == nil, !stopped else { return }
    do throws(MQTTError) {
      if intake != nil {
        do {
          try outbox.install(CommandLedger.schema)
        } catch {
          throw MQTTError(operation: "record fleet commands", reason: error.description)
        }
      }
      let password = try configuration.passwordFile.map { path throws(MQTTError) in
        try UplinkCredentials.password(fromFile: path)
      }
      let publisher = try MQTTPublisher(
        configuration: configuration, password: password, maxInFlight: maxInFlight, queue: queue, clock: clock
      ) { [weak self] event in self?.handle(event) }
      self.publisher = publisher
      publisher.start()
      log(UplinkLogLine(.info, "uplink: connecting to \(brokerName) as \(configuration.clientID)"))
    } catch {
      lastError = error.description
      log(UplinkLogLine(.error, error.description))
      throw error
    }
  }

  /// Says offline, disconnects and stops the network thread (blocking for at most
  /// `timeout`). What was not acknowledged stays in the outbox for the next start.
  public func stop(timeout: TimeInterval = 5) {
    dispatchPrecondition(condition: .onQueue(queue))
    guard !stopped else { return }
    removeAcknowledged()
    stopped = true
    connected = false
    inFlight = [:]
    if let publisher, !publisher.stop(timeout: timeout) {
      log(UplinkLogLine(.warning, "uplink: the network thread did not stop within \(timeout) s; left behind"))
    }
    publisher = nil
  }

  /// Call after a transaction that queued messages has committed, so they go out now.
  public func outboxDidChange() {
    dispatchPrecondition(condition: .onQueue(queue))
    republishIfStalled()
    pump()
  }

  /// Call now and then (the daemon's status tick): publishes again what has waited longer
  /// than `acknowledgementTimeout` for the broker.
  public func tick() {
    dispatchPrecondition(condition: .onQueue(queue))
    republishIfStalled()
    pump()
  }

  private func republishIfStalled() {
    guard connected, let oldest = inFlight.values.map(\.at).min() else { return }
    let waited = monotonicClock() - oldest
    guard waited > acknowledgementTimeout else { return }
    fail(
      "uplink: no acknowledgement from \(brokerName) for \(Int(waited)) s; publishing the unacknowledged entries again")
    rewind()
  }

  /// Forgets what is in flight and starts again from the head of the outbox.
  private func rewind() {
    inFlight = [:]
    lastDispatched = 0
  }

  /// Publishes the retained live status, at most once per `live_interval`, and only while
  /// connected: a dashboard wants the latest picture, not a backlog. Returns whether it was
  /// sent.
  @discardableResult
  public func publishLive(_ status: LiveStatus) -> Bool {
    dispatchPrecondition(condition: .onQueue(queue))
    guard connected, let publisher else { return false }
    let now = clock()
    if let lastLiveAt, now.timeIntervalSince(lastLiveAt) < configuration.liveInterval, now >= lastLiveAt {
      return false
    }
    do {
      _ = try publisher.publish(topic: configuration.topic(.live), payload: encoder.live(status), qos: 0, retain: true)
      lastLiveAt = now
      return true
    } catch {
      lastError = error.description
      return false
    }
  }

  public func status() -> UplinkStatus {
    dispatchPrecondition(condition: .onQueue(queue))
    var depth = 0
    var age: TimeInterval?
    var error = lastError
    do {
      depth = try outbox.depth()
      age = try outbox.oldestQueuedAt().map { clock().timeIntervalSince($0) }
    } catch let outboxError {
      error = outboxError.description
    }
    return UplinkStatus(
      broker: brokerName, connected: connected, outboxDepth: depth, oldestUnsentAge: age, inFlight: inFlight.count,
      lastError: error, lastAcknowledgedAt: lastAcknowledgedAt, commands: commandTally)
  }

  private var brokerName: String { "\(configuration.host):\(configuration.port)" }

  private func handle(_ event: MQTTEvent) {
    dispatchPrecondition(condition: .onQueue(queue))
    guard !stopped else { return }
    switch event {
    case .connected:
      connected = true
      lastError = nil
      lastLoggedFailure = nil
      // Publish again whatever is unacknowledged, from the head of the outbox.
      removeAcknowledged()
      rewind()
      log(UplinkLogLine(.info, "uplink: connected to \(brokerName)"))
      pump()
    case .refused(let reason):
      connected = false
      fail("uplink: \(brokerName) refused the connection: \(reason)")
    case .connectFailed(let reason):
      connected = false
      fail("uplink: \(reason)")
    case .disconnected(let reason):
      connected = false
      fail("uplink: \(brokerName): \(reason)")
    case .message(let message):
      receivedCommand(message)
    case .acknowledged(let messageID):
      guard let sequence = inFlight.removeValue(forKey: messageID)?.sequence else { return }
      lastAcknowledgedAt = clock()
      acknowledgedSequences.append(sequence)
      // Events already queued behind this one run first, so their removals join this one.
      if !removalScheduled {
        removalScheduled = true
        queue.async { [weak self] in
          guard let self, !self.stopped else { return }
          self.removeAcknowledged()
          self.pump()
        }
      }
    }
  }

  private func removeAcknowledged() {
    removalScheduled = false
    guard !acknowledgedSequences.isEmpty else { return }
    do {
      try outbox.remove(sequences: acknowledgedSequences)
      acknowledgedSequences = []
    } catch {
      // Kept for the next try; if they are published again meanwhile, the consumer drops the copy.
      fail(error.description)
    }
  }

  /// Keeps the error for status and logs it once per distinct message, so a broker that is
  /// down for a day does not write a journal line every back-off.
  func fail(_ message: String) {
    lastError = message
    if message != lastLoggedFailure {
      lastLoggedFailure = message
      log(UplinkLogLine(.warning, message))
    }
  }

  func pump() {
    guard connected, !stopped, let publisher else { return }
    while inFlight.count < maxInFlight {
      let entries: [OutboxEntry]
      do {
        entries = try outbox.peek(after: lastDispatched, limit: maxInFlight - inFlight.count)
      } catch {
        fail(error.description)
        return
      }
      if entries.isEmpty { return }
      for entry in entries {
        do {
          let messageID = try publisher.publish(
            topic: configuration.topic(entry.topic), payload: entry.payload, qos: configuration.qos, retain: false)
          inFlight[messageID] = (entry.sequence, monotonicClock())
          lastDispatched = entry.sequence
        } catch {
          // Most likely the connection dropped a moment ago; its event will follow.
          fail(error.description)
          return
        }
      }
    }
  }
}
