import Capture
import ControlProtocol
import DashPilotCore
import FoundationEssentials
import GPSD
import Guidance
import Store

/// Records shifts: reads gpsd (`GPSDSource`, on its own thread), judges fixes and groups
/// them into capture sessions (`CaptureService`), keeps them in SQLite (`SampleStore`
/// through `StoreSampleSink`'s one-second batches) and measures the open shift live
/// (`ActiveShiftRouteService`). It answers the shift commands, fills the gpsd, capture,
/// shift and store parts of `status`, and tells `FixObserver`s (guidance) of every fix.
///
/// Capture runs only while a shift is open. A daemon that starts with a shift still open
/// (a restart or a crash) ends the sessions the old process left running and captures in
/// a new one: a new process is an interruption the measurement must see.
///
/// The store is used on the loop thread: its writes are one short transaction a second
/// (WAL, one fsync), and every read answers a command. A write that hangs therefore stops
/// the loop, and the runtime withholds the watchdog, which is what a wedged store needs.
public final class RecordingComponent: DaemonComponent {
  public let name = "recording"
  public let commands: Set<ControlCommand> = [.shiftStart, .shiftEnd, .shifts, .shiftShow, .export, .import]

  /// A store failing this long without a single good write (other than for a full disk,
  /// which a restart cannot cure) is reported as not making progress, so systemd restarts
  /// the daemon and the file is opened afresh.
  public static let failingStoreLimit: TimeInterval = 300
  /// After a failed save the store is tried again on the tick, first after this long,
  /// then twice as long each time it still fails, up to `storeRetryLimit`.
  public static let firstStoreRetry: TimeInterval = 1
  public static let storeRetryLimit: TimeInterval = 30

  let configuration: DaemonConfiguration
  let batchPolicy: SampleBatchPolicy
  let figure: ShiftFigure
  private let makeSessionID: () -> CaptureSessionID
  private let synchronisedWallClock: () -> Date?
  /// Seconds on a clock that never steps (the store retry's back-off must not wait years
  /// because the wall clock was stepped back).
  private let monotonicClock: () -> TimeInterval

  var context: DaemonContext?
  var store: SampleStore?
  var liveMileage: ActiveShiftRouteService?
  private var source: GPSDSource?
  private var observers: [any FixObserver] = []
  private var storeOpenedHandlers: [(SampleStore) throws -> Void] = []

  /// While a shift is open: its capture, sink and id.
  struct Recording {
    var shiftID: Int64
    var capture: CaptureService
    var sink: StoreSampleSink
  }
  var recording: Recording?

  var gpsd = GPSDStatus()
  /// Shift starts and ends dated on the receiver's clock (see ShiftClock).
  lazy var shiftClock = ShiftClock(tolerance: configuration.maximumSampleInterval)
  private var sessionStartedAt: Date?
  /// Capture's tally when the current session started (or the last one ended), so status
  /// counts the fixes of this session (or since the last one).
  private var countedFrom = CaptureStatistics()

  // Store health for status and the watchdog.
  var storeError: String?
  /// When (monotonic) the store began failing: a stepped wall clock must not make a
  /// short failure look five minutes old, nor a long one new.
  private var storeFailingSince: TimeInterval?
  private var storeFailureCurable = true
  private var lastTick: Date?
  /// While capture holds on a failed save: when (monotonic) to try the store again, and
  /// the wait after that if it still fails.
  private var storeRetry: (due: TimeInterval, interval: TimeInterval)?

  /// `makeSessionID`, `synchronisedWallClock` and `monotonicClock` are seams for tests; the
  /// daemon uses random UUIDs, the kernel's word on clock synchronisation and the system's
  /// uptime.
  public init(
    configuration: DaemonConfiguration, batchPolicy: SampleBatchPolicy = SampleBatchPolicy(),
    makeSessionID: @escaping () -> CaptureSessionID = { CaptureSessionID(UUID().uuidString.lowercased()) },
    synchronisedWallClock: @escaping () -> Date? = { WallClockSynchronisation.isSynchronised() ? Date() : nil },
    monotonicClock: @escaping () -> TimeInterval = { ProcessInfo.processInfo.systemUptime }
  ) {
    self.configuration = configuration
    self.batchPolicy = batchPolicy
    self.figure = ShiftFigure(unit: configuration.units)
    self.makeSessionID = makeSessionID
    self.synchronisedWallClock = synchronisedWallClock
    self.monotonicClock = monotonicClock
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
    let now = Date()
    let store = try SampleStore(path: configuration.databasePath, now: now)
    self.store = store
    for handler in storeOpenedHandlers { try handler(store) }
    // A new or migrated file is routine; a damaged one moved aside is not.
    let report = store.openReport
    let priority: LogPriority = report.movedAside != nil || !report.problems.isEmpty ? .warning : .info
    for message in report.messages {
      context.logger.log(priority, "store: \(message)", fields: LogFields(reason: "store_open"))
    }
    // Sessions a crashed or killed process left running are over: say so.
    for session in try store.endRunningCaptureSessions(at: now, reason: "daemon restarted") {
      context.announce(
        "capture.session_ended", "capture session \(session) ended: daemon restarted",
        fields: LogFields(session: session.rawValue, reason: "daemon restarted"))
    }
    liveMileage = ActiveShiftRouteService(store: store)
    if let open = try store.openShift() {
      try beginCapture(shiftID: open.id)
      context.announce(
        "capture.resumed", "shift \(open.id) is still open: capture resumes in a new session",
        fields: LogFields(shift: open.id, reason: "daemon restarted"))
    }
    startGPSD(context: context)
  }

  private func startGPSD(context: DaemonContext) {
    let address = configuration.gpsd
    let bound = context.bind(self)
    let mailbox = context.mailbox
    let source = GPSDSource(endpoint: GPSDEndpoint(host: address.host, port: Int(address.port))) { event in
      mailbox.post { bound.withValue { $0.handle(event) } }
    }
    self.source = source
    source.start()
  }

  public func tick(now: Date) {
    lastTick = now
    guard var current = recording else { return }
    do {
      if try current.sink.flushIfDue() > 0 { storeWorked() }
    } catch {
      let outcomes = current.capture.saveFailed(reason: error.description)
      recording = current
      report(outcomes, shiftID: current.shiftID, storeFailure: error.error)
    }
    retryStoreIfDue()
  }

  /// While capture holds on a failed save, tries the store again when the back-off says
  /// so: one real write (`StoreSampleSink.retryAfterFailure`). Success ends the hold, and
  /// the next fix begins one new session; failure doubles the wait.
  private func retryStoreIfDue() {
    guard var current = recording, current.capture.storeFailure != nil else {
      storeRetry = nil
      return
    }
    let now = monotonicClock()
    let retry = storeRetry ?? (due: now + Self.firstStoreRetry, interval: Self.firstStoreRetry)
    guard now >= retry.due else {
      storeRetry = retry
      return
    }
    do {
      try current.sink.retryAfterFailure()
    } catch {
      let interval = min(retry.interval * 2, Self.storeRetryLimit)
      storeRetry = (due: now + interval, interval: interval)
      return
    }
    current.capture.storeRecovered()
    recording = current
    storeRetry = nil
    storeWorked()
  }

  public func isMakingProgress(now: Date) -> Bool {
    if let lastTick, now.timeIntervalSince(lastTick) > 10 { return false }
    if let since = storeFailingSince, storeFailureCurable,
      monotonicClock() - since > Self.failingStoreLimit
    {
      return false
    }
    return true
  }

  public func stop() {
    if let current = recording {
      endCapture(current, reason: "daemon stopping")
      recording = nil
    }
    if let source, !source.stop(timeout: 5) {
      context?.logger.warning("the gpsd reader did not stop within 5 s", fields: LogFields(reason: "stopping"))
    }
    source = nil
  }

  // MARK: - gpsd events (loop thread)

  func handle(_ event: GPSDSourceEvent) {
    noteConnection(gpsd.note(event))
    if case let .report(.tpv(tpv), _) = event, let fix = GuidanceFix(tpv) {
      for observer in observers { observer.observe(fix: fix) }
    }
    guard var current = recording else { return }
    let before = current.capture.statistics
    let outcomes = current.capture.handle(event, synchronisedWallClock: synchronisedWallClock())
    recording = current
    report(outcomes, shiftID: current.shiftID, statisticsBefore: before)
  }

  private func noteConnection(_ change: GPSDStatus.ConnectionChange?) {
    guard let change, let context else { return }
    let address = configuration.gpsd.description
    switch change {
    case .connected:
      context.announce("gpsd.connected", "connected to gpsd at \(address)", priority: .info)
    case let .disconnected(reason):
      context.announce(
        "gpsd.disconnected", "lost gpsd at \(address): \(reason)", priority: .warning,
        fields: LogFields(reason: reason))
    case let .stillUnreachable(reason):
      // Reconnection attempts back off up to 30 s; one line for the first, not each.
      if !loggedUnreachable {
        loggedUnreachable = true
        context.announce(
          "gpsd.unreachable", "gpsd at \(address) cannot be reached: \(reason); retrying", priority: .warning,
          fields: LogFields(reason: reason))
      }
      return
    case let .version(release):
      context.logger.info("gpsd \(release) answered", fields: .none)
    case let .deviceActive(path):
      context.announce("gpsd.device", "receiver \(path) active", priority: .info, data: ["device": .string(path)])
    case let .deviceRemoved(path):
      context.announce(
        "gpsd.device_removed", "receiver \(path ?? "?") removed", priority: .warning,
        fields: LogFields(reason: "device removed"))
    }
    loggedUnreachable = false
  }
  private var loggedUnreachable = false

  // MARK: - Capture on and off

  /// Starts capturing into shift `shiftID` with a fresh sink and service.
  func beginCapture(shiftID: Int64) throws {
    guard let store else { return }
    let sink = StoreSampleSink(batch: SampleBatch(store: store, shiftID: shiftID, policy: batchPolicy), now: Date.init)
    var capture = CaptureService(
      sink: sink, filter: RouteSampleFilter(configuration: configuration.filter), holdsAfterSaveFailure: true,
      makeSessionID: makeSessionID)
    try capture.startCapture()
    recording = Recording(shiftID: shiftID, capture: capture, sink: sink)
    storeRetry = nil
    sessionStartedAt = nil
    countedFrom = CaptureStatistics()
  }

  /// Writes what is pending and ends the session (shift end, daemon stopping).
  func endCapture(_ current: Recording, reason: String) {
    var current = current
    do {
      try current.sink.flush()
    } catch {
      report(current.capture.saveFailed(reason: error.description), shiftID: current.shiftID, storeFailure: error.error)
    }
    report(current.capture.stopCapture(reason: reason), shiftID: current.shiftID)
  }

  /// Journal lines, events and observers for what capture did.
  /// `statisticsBefore` is capture's tally before the input that led to `outcomes`: a
  /// session's counts start with the fix that started it.
  func report(
    _ outcomes: [CaptureEvent], shiftID: Int64, storeFailure: StoreError? = nil,
    statisticsBefore: CaptureStatistics? = nil
  ) {
    guard let context else { return }
    for outcome in outcomes {
      switch outcome {
      case let .sessionStarted(id, reason):
        sessionStartedAt = Date()
        countedFrom = statisticsBefore ?? recording?.capture.statistics ?? CaptureStatistics()
        context.announce(
          "capture.session_started", "capture session \(id) started for shift \(shiftID): \(reason)",
          fields: LogFields(session: id.rawValue, shift: shiftID, reason: reason.description))
      case let .sessionEnded(id, reason):
        sessionStartedAt = nil
        countedFrom = recording?.capture.statistics ?? CaptureStatistics()
        context.announce(
          "capture.session_ended", "capture session \(id) of shift \(shiftID) ended: \(reason)",
          priority: reason.code == "capture_stopped" ? .notice : .warning,
          fields: LogFields(session: id.rawValue, shift: shiftID, reason: reason.description))
      case let .accepted(sample):
        for observer in observers { observer.observe(accepted: sample) }
        redateProvisionalStart(keeping: sample, shiftID: shiftID)
        // Nothing left pending after a kept sample: its batch was just written.
        if storeError != nil, recording?.sink.batch.pending.isEmpty == true { storeWorked() }
      case let .saveFailed(reason):
        storeFailed(reason, error: storeFailure, shiftID: shiftID)
      case .rejected, .dropped:
        break
      }
    }
  }

  /// The first kept fix of a shift started before any fix checks the wall clock's stamp.
  private func redateProvisionalStart(keeping sample: RouteSample, shiftID: Int64) {
    guard let correction = shiftClock.kept(fixAt: sample.timestamp, monotonic: monotonicClock(), shiftID: shiftID),
      let store
    else { return }
    do {
      try store.redateShiftStart(shiftID, to: correction.start)
      context?.logger.notice(
        "shift \(shiftID) was dated by the wall clock, \(Int(correction.wallClockError.rounded())) s off the receiver's time; its start is re-dated to the receiver's",
        fields: LogFields(shift: shiftID, reason: "wall clock disagrees with the receiver"))
    } catch {
      context?.logger.warning("shift \(shiftID) could not be re-dated: \(error)", fields: LogFields(shift: shiftID))
    }
  }

  /// Now on the receiver's clock if a fix has been kept, else the wall clock.
  func shiftStartStamp() -> Date { shiftClock.startStamp(wall: Date(), monotonic: monotonicClock()) }
  func shiftEndStamp() -> Date { shiftClock.endStamp(wall: Date(), monotonic: monotonicClock()) }
  func noteShiftStarted(_ id: Int64, at stamp: Date) {
    shiftClock.shiftStarted(id, stamped: stamp, monotonic: monotonicClock())
  }

  // MARK: - Store health

  /// A write failed: one journal line when the store goes from working to failing (or
  /// the error changes), not one a second while the disk stays full.
  func storeFailed(_ reason: String, error: StoreError?, shiftID: Int64?) {
    if storeFailingSince == nil { storeFailingSince = monotonicClock() }
    if case .diskFull? = error { storeFailureCurable = false } else { storeFailureCurable = true }
    guard storeError != reason else { return }
    storeError = reason
    context?.announce(
      "store.error", "store write failed: \(reason)", priority: .error,
      fields: LogFields(shift: shiftID, reason: reason))
  }

  /// A write succeeded: the store works again (capture's hold has ended, and its next fix
  /// begins one new session).
  func storeWorked() {
    guard storeFailingSince != nil || storeError != nil else { return }
    let previous = storeError ?? "an error"
    storeFailingSince = nil
    storeError = nil
    context?.announce("store.recovered", "store writes succeed again (after: \(previous))", priority: .notice)
  }

  // MARK: - Status

  /// The `capture.rejected` key of fixes dropped while the store failed.
  public static let droppedWhileStoreFailing = "store_failing"

  public func contribute(to status: inout StatusResult) {
    status.gpsd = gpsd.section(address: configuration.gpsd.description)
    if let current = recording {
      let statistics = current.capture.statistics
      var rejected: [String: Int] = [:]
      for (reason, count) in statistics.rejected {
        let since = count - (countedFrom.rejected[reason] ?? 0)
        if since > 0 { rejected[reason.rawValue] = since }
      }
      // Fixes dropped while capture holds on a failed save count as refused for that reason.
      let dropped = statistics.droppedWhileStoreFailing - countedFrom.droppedWhileStoreFailing
      if dropped > 0 { rejected[Self.droppedWhileStoreFailing] = dropped }
      status.capture = CaptureSection(
        session: current.capture.session?.rawValue, sessionStartedAt: sessionStartedAt,
        accepted: statistics.accepted - countedFrom.accepted, rejected: rejected)
    } else {
      status.capture = CaptureSection(session: nil, sessionStartedAt: nil, accepted: 0, rejected: [:])
    }
    if let liveMileage {
      do {
        if let live = try liveMileage.status() {
          status.shift = figure.summary(of: live.shift.shift, distance: live.distance)
        }
      } catch {
        storeError = storeError ?? "the open shift could not be read: \(error)"
      }
    }
    status.store.ok = storeError == nil
    status.store.lastError = storeError
  }
}
