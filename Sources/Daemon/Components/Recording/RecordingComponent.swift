import Capture
import ControlProtocol
import DashPilotCore
import FoundationEssentials
import GPSD
import Guidance
import PlatformSupport
import Store

#if canImport(Glibc)
  import Glibc
#endif

/// Records shifts: reads gpsd (`GPSDSource`: its thread connects, the loop reads),
/// captures the open shift's fixes into SQLite (`ShiftCapture`) and measures the open shift
/// live (`ActiveShiftRouteService`). It answers the shift commands, fills the gpsd, capture,
/// shift and store parts of `status`, and tells `FixObserver`s (guidance) of every fix.
///
/// What to make of each input is `RecordingCoordinator`'s decision (pure); this adapter
/// hands it gpsd's events, what capture did and the ticks, and carries out its actions.
///
/// With `[Shift] Start=manual` capture runs only while a shift is open; with `movement` it
/// runs from start-up, and shifts start and end as `ShiftPolicy` decides
/// (`ShiftRecorder`). A daemon that starts with a shift still open (a restart or a crash)
/// ends the sessions the old process left running and captures in a new one: a new
/// process is an interruption the measurement must see.
///
/// The store's writer is used on the loop thread: one short transaction a second (WAL, one
/// fsync); history is read on `readers`' connections. A write that hangs stops the loop,
/// and the runtime withholds the watchdog, which is what a wedged store needs.
public final class RecordingComponent: DaemonComponent {
  public let name = "recording"
  public let commands: Set<ControlCommand.Kind> = [
    .shiftStart, .shiftEnd, .shifts, .shiftShow, .export, .report, .import, .backup, .placesLoad,
  ]

  /// The `capture.rejected` key of fixes dropped while the store failed.
  public static let droppedWhileStoreFailing = SessionTally.droppedWhileStoreFailing

  let configuration: DaemonConfiguration
  let batchPolicy: SampleBatchPolicy
  let figure: ShiftFigure
  let makeSessionID: () -> CaptureSessionID

  var context: DaemonContext?
  var store: SampleStore?
  /// The threads that read history (`shifts`, `shift show`, `export`, `report`) off the loop.
  var readers: StoreReaders?
  /// The whole-file check after start-up, the copy of the file a damaged file or an old
  /// layout calls for, and what decides them (`RecordingComponent+StoreMaintenance`).
  var check: StoreCheck?
  var rebuilder: StoreRebuilder?
  var maintenance: StoreMaintenance?
  /// Completed shifts' figures, remembered for the readers.
  let figures = ShiftFigureMemory()
  var liveMileage: ActiveShiftRouteService?
  /// The stop the vehicle stands in now, from the rows capture keeps, for status.
  var currentStop: CurrentStopTracker
  /// The places that name stops (`[Places] File=`).
  var places: [Place]
  /// The places in effect (`[Places] File=`, or what `places.load` gave since).
  public var currentPlaces: [Place] { places }
  var source: GPSDSource?
  private var observers: [any FixObserver] = []
  var stopObservers: [any StopObserver] = []
  private var storeOpenedHandlers: [(SampleStore) throws -> Void] = []

  var coordinator: RecordingCoordinator
  /// While a shift is open: its capture.
  var capture: ShiftCapture?

  /// `makeSessionID` is a seam for tests; the daemon uses random UUIDs. The clocks are the
  /// context's.
  public init(
    configuration: DaemonConfiguration, batchPolicy: SampleBatchPolicy = SampleBatchPolicy(),
    makeSessionID: @escaping () -> CaptureSessionID = { CaptureSessionID(UUID().uuidString.lowercased()) }
  ) {
    self.configuration = configuration
    self.batchPolicy = batchPolicy
    self.figure = ShiftFigure(unit: configuration.units)
    self.makeSessionID = makeSessionID
    currentStop = CurrentStopTracker(policy: configuration.stopPolicy)
    places = configuration.places
    coordinator = RecordingCoordinator(
      gpsdAddress: configuration.gpsd.description, shiftClockTolerance: configuration.maximumSampleInterval,
      unit: configuration.units, endAfterStop: configuration.shiftPolicy.endAfterStop, places: configuration.places,
      endPlace: configuration.shiftPolicy.endPlace.map { ($0.name, configuration.shiftPolicy.endAfterStopAtPlace) })
  }

  /// Registers a component told of every fix and every accepted sample (guidance). Call
  /// before the daemon starts or on the loop thread.
  public func addFixObserver(_ observer: any FixObserver) {
    observers.append(observer)
  }

  /// Registers a handler run as soon as the store is open, before anything is written to
  /// it (the uplink installs its outbox in the store's transactions there). A throw stops
  /// start-up. Call before the daemon starts.
  public func addStoreOpenedHandler(_ handler: @escaping (SampleStore) throws -> Void) {
    storeOpenedHandlers.append(handler)
  }

  // MARK: - Lifecycle

  public func start(context: DaemonContext) throws {
    self.context = context
    let now = context.clock.now()
    let store = try SampleStore(path: configuration.databasePath, now: now.wall)
    self.store = store
    for handler in storeOpenedHandlers { try handler(store) }
    // A new or migrated file is routine; a damaged one moved aside is not.
    let report = store.openReport
    let priority: LogPriority = report.needsAttention ? .warning : .info
    for message in report.messages where message != report.switched?.message(path: report.path) {
      context.logger.log(priority, "store: \(message)", fields: LogFields(reason: "store_open"))
    }
    if let switched = report.switched {
      context.announce(
        .storeReplaced(
          .init(purpose: switched.purpose.rawValue, samples: switched.samples, keptAs: switched.keptAs)),
        "store: " + switched.message(path: report.path), priority: priority)
    }
    // Sessions a crashed or killed process left running are over: say so.
    for session in try store.endRunningCaptureSessions(at: now.wall, reason: "daemon restarted") {
      context.announce(
        .captureSessionEnded(.init(session: session.rawValue, shift: nil, reason: "daemon restarted")),
        "capture session \(session) ended: daemon restarted")
    }
    liveMileage = ActiveShiftRouteService(store: store)
    readers = StoreReaders(path: configuration.databasePath, count: Self.readerCount, mailbox: context.mailbox)
    try beginMaintenance(store, context: context)
    let open = try store.openShift()
    if configuration.shiftStart == .movement {
      try beginWatching(store)
    } else if let open {
      try beginCapture(shiftID: open.id)
    }
    if let open {
      context.announce(
        .captureResumed(.init(shift: open.id)), "shift \(open.id) is still open: capture resumes in a new session")
    }
    startGPSD(context: context)
  }

  private func startGPSD(context: DaemonContext) {
    let address = configuration.gpsd
    let bound = context.bind(self)
    let mailbox = context.mailbox
    // The source's thread connects; the loop reads each session's socket itself, so a
    // report costs no thread wake-up and no hand-off (at a real receiver's pace, what
    // most of the daemon's CPU per report went on).
    let source = GPSDSource(
      endpoint: GPSDEndpoint(host: address.host, port: Int(address.port)),
      batchHandler: { events in
        mailbox.post { bound.withValue { recording in for event in events { recording.handle(event) } } }
      },
      socketOpened: { socket in
        mailbox.post { bound.withValue { $0.watchGPSD(socket) } }
      })
    self.source = source
    source.start()
  }

  /// The socket of the gpsd session the loop is reading, while it watches one, and how
  /// often it reads it (`RecordingComponent+GPSD`).
  var gpsdSocket: Int32?
  /// Whether the loop leaves gpsd's socket unread for now (`GPSDReadPacing`).
  var gpsdPaused = false
  var readPacing = GPSDReadPacing()

  public func tick(now: ClockReading) {
    let outcome = capture?.tick(
      quietSince: now.monotonic - Self.quietInstant, receiverTime: coordinator.receiverTime(now: now),
      synchronisedWallClock: now.synchronisedWall)
    perform(coordinator.ticked(captured: outcome, now: now))
    if let capture, coordinator.isStoreRetryDue(holding: capture.isHolding, now: now) {
      perform(coordinator.storeRetried(succeeded: capture.retryStore(), now: now))
    }
    maintainStore(now: now)
  }

  /// A receiver's instant is judged when the next one's report comes; one that has had no
  /// report for this long (seconds) is judged on the tick.
  static let quietInstant: Double = 1

  /// Judges the receiver's last instant whatever it is, as when a test says the instant is
  /// complete.
  func judgePendingInstant(now: ClockReading) {
    guard let capture else { return }
    perform(coordinator.captured(capture.judgePendingInstant(), now: now))
  }

  public func isMakingProgress(now: ClockReading) -> Bool {
    coordinator.isMakingProgress(now: now)
  }

  /// Threads reading history: two, so a short request is not queued behind a long export.
  static let readerCount = 2

  public func stop() {
    if let now = context?.clock.now() { endCapture(reason: "daemon stopping", now: now) }
    readers?.finish()
    check?.finish()
    rebuilder?.finish()
    // Before the source's thread closes the socket, which it does as it stops.
    unwatchGPSD()
    if let source, !source.stop(timeout: 5) {
      context?.logger.warning("the gpsd reader did not stop within 5 s", fields: LogFields(reason: "stopping"))
    }
    source = nil
  }

  // MARK: - gpsd events (loop thread)

  func handle(_ event: GPSDSourceEvent) {
    guard let now = context?.clock.now() else { return }
    handle(event, now: now)
  }

  func handle(_ event: GPSDSourceEvent, now: ClockReading) {
    // A report of a class nothing here reads (GST, SKY, WATCH: half of what gpsd sends)
    // changes no status and no capture; it is not worth a turn through either.
    if case .report(.other, _) = event { return }
    // The clocks as this turn read them, beside the monotonic clock that stamped the
    // report, also date a fix the receiver sent no date for (`ArrivalDating`).
    let captured = capture?.handle(event, synchronisedWallClock: now.synchronisedWall, wallClock: now)
    perform(coordinator.reported(event, captured: captured, now: now), now: now)
  }

  // MARK: - Carrying out the coordinator's actions

  /// `now`: the clocks as the caller read them for the input that led to `actions`.
  func perform(_ actions: [RecordingAction], now: ClockReading? = nil) {
    guard let context, !actions.isEmpty else { return }
    for action in actions {
      switch action {
      case let .announce(report):
        announceFollowingShifts(report)
      case let .log(priority, message, fields):
        context.logger.log(priority, message, fields: fields)
      case let .observeFix(fix):
        context.noteReceiverTime(fix.timestamp, at: now ?? context.clock.now())
        for observer in observers { observer.observe(fix: fix) }
      case let .observeAccepted(sample):
        stopKept(sample)
        for observer in observers { observer.observe(accepted: sample) }
      case let .redateShiftStart(shift, start, wallClockError):
        redateShiftStart(shift, to: start, wallClockError: wallClockError)
      }
    }
  }

  private func redateShiftStart(_ shift: Int64, to start: Date, wallClockError: TimeInterval) {
    guard let store, let context else { return }
    do {
      try store.redateShiftStart(shift, to: start)
      currentStop.shiftStarted(at: start)
      context.logger.notice(
        "shift \(shift) was dated by the wall clock, \(Int(wallClockError.rounded())) s off the receiver's time; its start is re-dated to the receiver's",
        fields: LogFields(shift: shift, reason: "wall clock disagrees with the receiver"))
    } catch {
      context.logger.warning("shift \(shift) could not be re-dated: \(error)", fields: LogFields(shift: shift))
    }
  }
}
