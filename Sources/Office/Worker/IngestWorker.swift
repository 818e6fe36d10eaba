import FoundationEssentials
import OfficeCore
import PlatformSupport

#if canImport(Glibc)
  import Glibc
#endif

/// One worker process: its own connection to the broker (a fixed client id, a persistent
/// session, the shared subscription) and to PostgreSQL. It takes a batch of messages,
/// stores them in one transaction, and only then acknowledges them: a worker killed at any
/// moment leaves every unacknowledged message with the broker, which sends it again when
/// the worker's session comes back (the service restarts it under the same client id), and
/// the keys make the second write change nothing.
public final class IngestWorker: @unchecked Sendable {
  // @unchecked: the worker's state is its run loop's; the reader thread only touches `inbox`.
  let configuration: OfficeConfiguration
  let index: Int
  let log: OfficeLog
  let topics: BoxTopics
  let judge: MessageJudge
  let stop: StopSignal
  let inbox = Inbox()
  var broker: MQTTConnection?
  var generation = 0
  var writer: BatchWriter?
  var tally = WorkerTally()
  var backoff = Backoff()
  /// The broker is tried again every 0.25 s for its first 10 s away: a broker that forgets
  /// shared subscriptions when it restarts (mosquitto before 2.0.19, Debian 12's 2.0.11)
  /// drops what boxes publish until the workers subscribe again (docs/office.md), and a
  /// box's first reconnection comes after a second (its ReconnectDelay=).
  var brokerBackoff = Backoff(fast: 0.25, fastAttempts: 40)
  var lastHeartbeat = 0.0
  var lastError: String?
  var errorThrottle = LogThrottle(interval: 10)

  public init(configuration: OfficeConfiguration, index: Int, stop: StopSignal) throws {
    self.configuration = configuration
    self.index = index
    self.stop = stop
    log = OfficeLog(source: "worker \(index)")
    topics = try configuration.topics
    judge = MessageJudge(topics: topics, maximumPayload: configuration.maximumPayload)
    stop.onStop { [inbox] in inbox.wake() }
  }

  /// Runs until SIGTERM: then the batch in hand is stored and acknowledged, and the
  /// connection to the broker ends with a DISCONNECT (the session stays).
  public func run() -> Int32 {
    log.info(
      "connecting as \(configuration.clientID(ofWorker: index)) to \(configuration.host):\(configuration.port), "
        + "sharing $share/\(configuration.group)/\(configuration.topicPrefix)/...")
    while !stop.isSet {
      guard writer != nil || connectDatabase() else { continue }
      guard broker?.isOpen == true || connectBroker() else { continue }
      let arrivals = inbox.take(
        maximum: configuration.batchSize, delay: configuration.batchDelay, idle: 1)
      if arrivals.isEmpty {
        heartbeat()
      } else {
        store(arrivals)
      }
    }
    // What already arrived is stored before leaving, so a restart sends little again.
    let last = inbox.take(maximum: .max, delay: 0, idle: 0)
    if !last.isEmpty, writer != nil { store(last, stopping: true) }
    broker?.disconnect()
    log.info("stopped")
    return 0
  }

  /// False (after a pause) when PostgreSQL cannot be reached; said at most every 10 s.
  func connectDatabase() -> Bool {
    do {
      let connection = try PostgresConnection(configuration.database)
      try connection.execute("SET application_name = 'dashpilot-officed worker \(index)'")
      let writer = try BatchWriter(connection: connection, worker: index, topics: topics)
      try registerWorker(connection)
      self.writer = writer
      backoff.reset()
      if lastError != nil { log.notice("PostgreSQL is back: storing again") }
      lastError = nil
      return true
    } catch {
      failed("cannot reach PostgreSQL: \(error)")
      return false
    }
  }

  func registerWorker(_ connection: PostgresConnection) throws(PostgresError) {
    var name = [CChar](repeating: 0, count: 256)
    gethostname(&name, name.count)
    try connection.execute(
      """
      INSERT INTO workers (worker, host, pid, client_id, started_at, heartbeat_at, broker_connected)
      VALUES ($1, $2, $3, $4, now(), now(), false)
      ON CONFLICT (worker) DO UPDATE SET host = EXCLUDED.host, pid = EXCLUDED.pid, client_id = EXCLUDED.client_id,
        started_at = EXCLUDED.started_at, heartbeat_at = EXCLUDED.heartbeat_at, broker_connected = false,
        last_error = NULL
      """,
      [
        String(index), String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self),
        String(getpid()), configuration.clientID(ofWorker: index),
      ])
  }

  /// False (after a pause) when the broker cannot be reached or refuses the subscription.
  func connectBroker() -> Bool {
    // What the last connection brought and was not stored comes again on the next one.
    inbox.drop(connection: generation)
    generation += 1
    let connection = generation
    var options = MQTTConnection.Options(
      host: configuration.host, port: configuration.port, clientID: configuration.clientID(ofWorker: index))
    options.sessionExpiry = UInt32(configuration.sessionExpiry)
    options.receiveMaximum = UInt16(min(65_535, configuration.batchSize * 2))
    options.keepAlive = UInt16(configuration.keepAlive)
    options.maximumHeld = configuration.maximumPayload + 65_536
    do {
      if let username = configuration.username {
        options.credentials = MQTTEncode.Credentials(username: username, password: try configuration.password())
      }
      let client = MQTTConnection(options: options) { [inbox, stop, judge] event in
        switch event {
        case .publish(let publish):
          let receivedAt = Date()
          let judgement = judge.judge(topic: publish.topic, payload: publish.payload, payloadSize: publish.payloadSize)
          inbox.put(
            Inbox.Arrival(
              publish: publish, judgement: judgement, receivedAt: receivedAt, arrivedMonotonic: MonotonicClock.now(),
              connection: connection))
        case .closed:
          if !stop.isSet { inbox.wake() }
        case .puback:
          break
        }
      }
      let resumed = try client.connect().sessionPresent
      let granted = try client.subscribe(topics.sharedFilters(group: configuration.group), qos: 1)
      guard granted.allSatisfy({ $0 <= 2 }) else {
        client.disconnect()
        throw MQTTConnection.Failure(
          "the broker refused the subscription: "
            + granted.filter { $0 > 2 }.map { MQTTReasonCode.text($0) }.joined(separator: ", "))
      }
      broker = client
      brokerBackoff.reset()
      log.info("connected to the broker (\(resumed ? "its session kept what came meanwhile" : "a new session"))")
      markBroker(connected: true)
      return true
    } catch {
      failed("cannot use the broker \(configuration.host):\(configuration.port): \(error)", pause: brokerBackoff.next())
      return false
    }
  }

  /// Notes a failure (logged at most every 10 s, kept for `status`) and pauses.
  func failed(_ message: String, pause: Double? = nil) {
    lastError = message
    if errorThrottle.admit(now: MonotonicClock.now()).say { log.warning(message) }
    stop.sleep(pause ?? backoff.next())
  }

  /// Every 5 s without a batch: the row in `workers` says the worker is alive.
  func heartbeat() {
    if let line = tally.refusals(in: [], now: MonotonicClock.now()) { log.warning(line) }
    if broker?.isOpen != true { inbox.drop(connection: generation) }
    let now = MonotonicClock.now()
    guard now - lastHeartbeat >= 5 else { return }
    lastHeartbeat = now
    markBroker(connected: broker?.isOpen == true)
  }

  func markBroker(connected: Bool) {
    let rates = tally.rates(now: MonotonicClock.now())
    do {
      try writer?.connection.execute(
        """
        UPDATE workers SET heartbeat_at = clock_timestamp(), broker_connected = $2, last_error = $3,
          messages_per_second = $4, samples_per_second = $5
        WHERE worker = $1
        """,
        [
          String(index), connected ? "t" : "f", lastError, "\(rates.messagesPerSecond)", "\(rates.samplesPerSecond)",
        ])
    } catch {
      if error.isServerUnavailable { writer = nil }
    }
  }
}
