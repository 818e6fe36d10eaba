import Capture
import ControlProtocol
import DashPilotCore
import FoundationEssentials
import GPSD
import Guidance
import PlatformSupport

/// The recording component's decisions as a pure state machine: told what gpsd reported,
/// what capture did with it and the time, it answers with what to tell the journal,
/// followers and observers, and what to write; `RecordingComponent` does the I/O (the gpsd
/// reader, capture into the store, re-dating a shift). It reads no clock.
///
/// Everything capture does reaches `captured(_:now:)` (a kept sample, a session starting or
/// ending, a failed save) and the passing of time reaches `ticked(now:)`: a policy that acts
/// on those, such as one that starts and ends shifts by itself, belongs here, its actions
/// carried out with the rest.
struct RecordingCoordinator {
  /// gpsd's address, as the journal names it.
  let gpsdAddress: String
  private(set) var gpsd = GPSDStatus()
  private(set) var tally = SessionTally()
  private(set) var storeHealth = StoreHealth()
  var shiftClock: ShiftClock
  /// How shifts' figures are worded.
  let figure: ShiftFigure
  /// `[Shift] EndAfterStop`, as the journal says it.
  let endAfterStop: TimeInterval
  /// `[Shift] EndAtPlace=` and `EndAfterStopAtPlace=`, as the journal says them.
  var endPlace: (name: String, after: TimeInterval)?
  /// Which places the vehicle is in, from the samples capture keeps.
  var placeTracker: PlaceTracker
  /// gpsd is reported unreachable once, not at each reconnection attempt.
  private var reportedUnreachable = false
  /// When (monotonic) the last tick ran.
  private var lastTick: TimeInterval?

  init(
    gpsdAddress: String, shiftClockTolerance: TimeInterval, unit: DistanceUnit = .miles,
    endAfterStop: TimeInterval = ShiftPolicy.Configuration().endAfterStop, places: [Place] = [],
    endPlace: (name: String, after: TimeInterval)? = nil
  ) {
    self.gpsdAddress = gpsdAddress
    shiftClock = ShiftClock(tolerance: shiftClockTolerance)
    figure = ShiftFigure(unit: unit)
    self.endAfterStop = endAfterStop
    self.endPlace = endPlace
    placeTracker = PlaceTracker(places: places)
  }

  // MARK: - What happened

  /// One event of the gpsd reader, whether or not a shift is open (a driver checks the
  /// receiver before starting one, and guidance hears of every fix), with what capture did
  /// with it (nil while capture does not run): the one decision for it.
  mutating func reported(
    _ event: GPSDSourceEvent, captured outcome: CaptureOutcome?, now: ClockReading
  ) -> [RecordingAction] {
    var actions = connectionChanged(gpsd.note(event))
    if case let .report(.tpv(tpv), _) = event, let fix = GuidanceFix(tpv) { actions.append(.observeFix(fix)) }
    if let outcome { actions += captured(outcome, now: now) }
    return actions
  }

  /// The tick, with what capture did on it (nil while capture does not run).
  mutating func ticked(captured outcome: CaptureOutcome?, now: ClockReading) -> [RecordingAction] {
    lastTick = now.monotonic
    return outcome.map { captured($0, now: now) } ?? []
  }

  private mutating func connectionChanged(_ change: GPSDStatus.ConnectionChange?) -> [RecordingAction] {
    guard let change else { return [] }
    let address = gpsdAddress
    let report: EventReport
    switch change {
    case .connected:
      report = EventReport(.gpsdConnected, "connected to gpsd at \(address)", priority: .info)
    case let .disconnected(reason):
      report = EventReport(.gpsdDisconnected(.init(reason)), "lost gpsd at \(address): \(reason)", priority: .warning)
    case let .stillUnreachable(reason):
      // Reconnection attempts back off up to 30 s; one line for the first, not each.
      guard !reportedUnreachable else { return [] }
      reportedUnreachable = true
      // The connection's own reason names gpsd and its address ("cannot connect to gpsd at
      // …"): a person reads each fact once.
      let said = reason.contains(address) ? reason : "gpsd at \(address) cannot be reached: \(reason)"
      return [.announce(EventReport(.gpsdUnreachable(.init(reason)), "\(said); retrying", priority: .warning))]
    case let .version(release):
      reportedUnreachable = false
      return [.log(.info, "gpsd \(release) answered", .none)]
    case let .deviceActive(path):
      report = EventReport(.gpsdDevice(.init(device: path)), "receiver \(path) active", priority: .info)
    case let .deviceRemoved(path):
      report = EventReport(
        .gpsdDeviceRemoved(.init(device: path)), "receiver \(path ?? "?") removed", priority: .warning)
    }
    reportedUnreachable = false
    return [.announce(report)]
  }

  // MARK: - Capture

  /// Capture started afresh for a shift: a new tally and no back-off.
  mutating func captureStarted() {
    tally.reset()
    storeHealth.resetRetry()
  }

  /// What capture did with one input (a fix, a tick, capture stopping, a shift command).
  mutating func captured(_ outcome: CaptureOutcome, now: ClockReading) -> [RecordingAction] {
    var actions: [RecordingAction] = []
    let shift = outcome.shift
    for event in outcome.events {
      tally.count(event, at: now.wall)
      switch event {
      case let .sessionStarted(id, reason):
        actions.append(
          .announce(
            EventReport(
              .captureSessionStarted(.init(session: id.rawValue, shift: shift, reason: reason.description)),
              "capture session \(id) started \(shift.map { "for shift \($0)" } ?? "(no shift open)"): \(reason)")))
      case let .sessionEnded(id, reason):
        actions.append(
          .announce(
            EventReport(
              .captureSessionEnded(.init(session: id.rawValue, shift: shift, reason: reason.description)),
              "capture session \(id)\(shift.map { " of shift \($0)" } ?? "") ended: \(reason)",
              // Capture stopping, or a private place, is routine; the others are losses.
              priority: ["capture_stopped", "private_place"].contains(reason.code) ? .notice : .warning)))
      case let .accepted(sample):
        actions.append(.observeAccepted(sample))
        actions += placesKept(sample)
        // The first kept fix of a shift started before any fix checks the wall clock's stamp.
        if let correction = shiftClock.kept(fixAt: sample.timestamp, monotonic: now.monotonic, shiftID: shift),
          let shift
        {
          actions.append(
            .redateShiftStart(shift: shift, to: correction.start, wallClockError: correction.wallClockError))
        }
      case let .saveFailed(reason):
        if let report = storeHealth.writeFailed(
          reason, diskFull: outcome.diskFull, shift: shift, at: now.monotonic)
        {
          actions.append(.announce(report))
        }
      case let .accuracyAssumed(id, metres):
        actions.append(
          .announce(
            EventReport(
              .captureAccuracyAssumed(.init(session: id.rawValue, shift: shift, accuracyMetres: metres)),
              "capture session \(id)\(shift.map { " of shift \($0)" } ?? ""): the receiver reports no error estimate; its fixes are kept with an assumed accuracy of \(Int(metres.rounded())) m",
              priority: .notice)))
      case .rejected, .dropped, .withheldInPrivatePlace:
        break
      }
    }
    // A write that went through after the store had been failing: it works again.
    if outcome.storeWrote, storeHealth.error != nil { actions += storeWrote() }
    for change in outcome.shiftChanges { actions += shiftChanged(change, now: now) }
    return actions
  }

  // MARK: - The store

  /// A write succeeded (a timed flush, a retry, a kept sample written).
  mutating func storeWrote() -> [RecordingAction] {
    storeHealth.writeSucceeded().map { [.announce($0)] } ?? []
  }

  /// The tick, with whether capture holds on a failed save: whether to try the store now.
  mutating func isStoreRetryDue(holding: Bool, now: ClockReading) -> Bool {
    storeHealth.isRetryDue(holding: holding, at: now.monotonic)
  }

  /// The retry's outcome.
  mutating func storeRetried(succeeded: Bool, now: ClockReading) -> [RecordingAction] {
    guard succeeded else {
      storeHealth.retryFailed(at: now.monotonic)
      return []
    }
    storeHealth.resetRetry()
    return storeWrote()
  }

  /// Status could not read the open shift.
  mutating func storeReadFailed(_ reason: String) {
    storeHealth.readFailed(reason)
  }

  // MARK: - Time

  /// The loop has ticked within 10 s, and the store is not stuck failing.
  func isMakingProgress(now: ClockReading) -> Bool {
    if let lastTick, now.monotonic - lastTick > 10 { return false }
    return storeHealth.isMakingProgress(at: now.monotonic)
  }

  // MARK: - Shift stamps (see `ShiftClock`)

  func shiftStartStamp(now: ClockReading) -> Date {
    shiftClock.startStamp(wall: now.wall, monotonic: now.monotonic)
  }

  mutating func shiftStarted(_ id: Int64, stamped stamp: Date, now: ClockReading) {
    shiftClock.shiftStarted(id, stamped: stamp, monotonic: now.monotonic)
  }

  func shiftEndStamp(now: ClockReading) -> Date {
    shiftClock.endStamp(wall: now.wall, monotonic: now.monotonic)
  }
}
