import ControlProtocol
import DashPilotCore
import Dispatch
import FoundationEssentials
import Guidance
import PlatformSupport
import Store
import Uplink

/// The fleet uplink in the daemon: queues what the store commits in the store's own
/// transactions (`OutboxCommitObserver`, installed by `storeOpened` as soon as the store is
/// open, so even the sessions a restart ends are queued) and the events a dispatcher
/// follows (UplinkComponent+Events), and drains the outbox to the broker through
/// `UplinkService`. With `AcceptCommands=yes` it takes the fleet's commands: the service
/// judges and records each on its queue, and `FleetCommandChannel` runs the new ones here,
/// through the daemon's one dispatcher.
///
/// The service lives on a serial queue of its own with a connection of its own to the
/// same database file (WAL: its reads never wait for the loop's writes, and its short
/// deletes wait at most for one batch). The loop never waits for it: `status` shows the
/// snapshot the queue posted back at the last tick, and MQTT runs on libmosquitto's
/// thread. Nothing the broker does can stall or fail capture.
///
/// It holds no other component: what it reads of the shift and of guidance is the
/// daemon's status (`DaemonContext.status`), and it is handed the store and the accepted
/// samples by whoever wires the daemon (`dashpilotd/main.swift`).
public final class UplinkComponent: DaemonComponent, FixObserver {
  public let name = "uplink"
  public let commands: Set<ControlCommand.Kind> = [.shiftResend]
  public let uplink: UplinkConfiguration
  let configuration: DaemonConfiguration
  /// The daemon's store, once it is open (`storeOpened`).
  var store: SampleStore?
  private let queue = DispatchQueue(label: "dashpilotd.uplink")

  var context: DaemonContext?
  /// The fleet's commands, with `AcceptCommands=yes`.
  private var fleetCommands: FleetCommandChannel?
  /// A failure to queue an event, logged once until one is queued again.
  var eventQueueFailed = false
  private var observer: OutboxCommitObserver?
  private var service: UplinkServiceBox?
  private var wakeScheduled = false
  /// The latest status the service's queue posted back.
  private var latest: UplinkStatus?
  private var lastPosition: RouteSample?
  /// When (monotonic) the last live status was handed to the service.
  private var lastLiveAt: Double?
  /// Overflows met before the context was there to log them.
  private var pendingOverflows: [OutboxOverflow] = []
  /// The places stops are named by: the recording component's, which `places.load` can
  /// change (wired by `dashpilotd/main.swift`); the configuration's until then.
  public var places: () -> [Place]
  /// A reader of the store's file, for `shift.resend`, made on first use.
  var readers: StoreReaders?
  /// The `shift.resend` being read or queued: one at a time.
  var resending: ResendInProgress?

  public init(configuration: DaemonConfiguration, uplink: UplinkConfiguration) {
    self.configuration = configuration
    self.uplink = uplink
    places = { configuration.places }
  }

  /// Installs the outbox in the store's transactions, before the store writes anything
  /// (`RecordingComponent.addStoreOpenedHandler`).
  public func storeOpened(_ store: SampleStore) throws {
    self.store = store
    try store.install(Outbox.schema)
    if uplink.acceptCommands { try store.install(CommandLedger.schema) }
    let observer = OutboxCommitObserver(outbox: outbox, unit: configuration.units)
    observer.onEnqueue = { [weak self] overflow in self?.enqueued(overflow) }
    store.commitObserver = observer
    self.observer = observer
  }

  public func start(context: DaemonContext) throws {
    self.context = context
    guard let store, observer != nil else {
      throw UplinkComponentError("the uplink needs the recording component's store, which was not opened")
    }
    for overflow in pendingOverflows { logOverflow(overflow) }
    pendingOverflows = []
    let database = try OutboxDatabase(path: configuration.databasePath, outbox: outbox)
    let logger = context.logger
    let service = UplinkService(
      configuration: uplink, outbox: database, queue: queue, clocks: context.clock.clocks
    ) { line in
      let priority: LogPriority =
        switch line.level {
        case .info: .info
        case .warning: .warning
        case .error: .error
        }
      logger.log(priority, line.message, fields: LogFields(reason: "uplink"))
    }
    let box = UplinkServiceBox(service: service, database: database)
    self.service = box
    let bound = context.bind(self)
    let mailbox = context.mailbox
    context.addEventObserver { [weak self] event in self?.announced(event) }
    if uplink.acceptCommands {
      fleetCommands = FleetCommandChannel(context: context, store: store, outbox: outbox, configuration: uplink) {
        [weak self] in self?.enqueued(nil)
      }
      service.onCommand = { admitted in mailbox.post { bound.withValue { $0.fleetCommands?.run(admitted) } } }
      // Once every component has started and the loop turns: what a killed process left.
      mailbox.post { bound.withValue { $0.fleetCommands?.runUnanswered() } }
    }
    queue.async {
      // A bad password or CA file is kept as the status's last error; capture goes on.
      try? box.service.start()
      let status = box.service.status()
      mailbox.post { bound.withValue { $0.latest = status } }
    }
    let reading = uplink.acceptCommands ? "; taking commands on \(uplink.topic(.command))" : ""
    context.logger.info(
      "uplink: publishing to \(uplink.host):\(uplink.port) under \(uplink.topicPrefix)\(reading)",
      fields: LogFields(reason: "uplink"))
  }

  public func tick(now: ClockReading) {
    guard let box = service, let context else { return }
    fleetCommands?.pruneIfDue(now: now.wall)
    let live = liveStatusIfDue(now: now)
    let bound = context.bind(self)
    let mailbox = context.mailbox
    queue.async {
      box.service.tick()
      if let live { box.service.publishLive(live) }
      let status = box.service.status()
      mailbox.post { bound.withValue { $0.latest = status } }
    }
  }

  var outbox: Outbox {
    Outbox(encoder: UplinkEncoder(vehicleID: uplink.vehicleID), bound: uplink.outboxBound)
  }

  public func contribute(to status: inout StatusResult) {
    let current =
      latest
      ?? UplinkStatus(
        broker: "\(uplink.host):\(uplink.port)", connected: false, outboxDepth: 0, oldestUnsentAge: nil, inFlight: 0,
        lastError: nil, lastAcknowledgedAt: nil)
    let tally = current.commands.merging(fleetCommands?.tally ?? CommandTally())
    status.uplink = UplinkSection(
      broker: current.broker, connected: current.connected, outboxDepth: current.outboxDepth,
      oldestUnsentAgeSeconds: current.oldestUnsentAge, inFlight: current.inFlight, lastError: current.lastError,
      summary: current.summary,
      commands: tally.section(configuration: uplink, now: context?.clock.now().wall ?? .distantPast))
  }

  public func stop() {
    readers?.finish()
    guard let box = service else { return }
    queue.sync { box.service.stop() }
    service = nil
  }

  // MARK: - FixObserver

  public func observe(fix: GuidanceFix) {}

  public func observe(accepted sample: RouteSample) { lastPosition = sample }

  // MARK: - Outbox

  /// Called inside the store's transaction: the drain is woken from the loop's next turn,
  /// once the transaction has committed and its rows are visible to the service.
  func enqueued(_ overflow: OutboxOverflow?) {
    if let overflow {
      if context == nil { pendingOverflows.append(overflow) } else { logOverflow(overflow) }
    }
    guard let context, !wakeScheduled else { return }
    wakeScheduled = true
    let bound = context.bind(self)
    context.mailbox.post {
      bound.withValue { component in
        component.wakeScheduled = false
        guard let box = component.service else { return }
        component.queue.async { box.service.outboxDidChange() }
      }
    }
  }

  private func logOverflow(_ overflow: OutboxOverflow) {
    context?.announce(.uplinkOutboxOverflow, overflow.logLine, priority: .warning)
  }

  /// The dashboards' picture, at most once per `live_interval` (the service throttles too).
  private func liveStatusIfDue(now: ClockReading) -> LiveStatus? {
    if let lastLiveAt, now.monotonic - lastLiveAt < uplink.liveInterval { return nil }
    guard latest?.connected == true else { return nil }
    lastLiveAt = now.monotonic
    let status = context?.status()
    return LiveStatus(
      at: now.wall, position: lastPosition, shift: status?.shift.map(LiveStatus.RunningShift.init),
      guidance: status?.guidance.map(LiveStatus.Guidance.init))
  }
}

/// The service and the connection it drains through, handed to the uplink's queue.
final class UplinkServiceBox: @unchecked Sendable {
  // @unchecked: used only on the uplink component's queue.
  let service: UplinkService
  let database: OutboxDatabase

  init(service: UplinkService, database: OutboxDatabase) {
    self.service = service
    self.database = database
  }
}

struct UplinkComponentError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}
