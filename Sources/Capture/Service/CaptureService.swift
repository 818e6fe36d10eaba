import DashPilotCore
import FoundationEssentials
import GPSD
import PlatformSupport

/// Turns gpsd's reports into kept samples, grouped into capture sessions exactly as the
/// measurement needs them: a session is minted when fixes start flowing and cleared when
/// they stop (gpsd connection lost, a new gpsd, the device deactivated or its path changed,
/// capture stopped, a sample that could not be saved). A change of session is how the
/// measurement later sees an interruption that timestamps cannot show.
///
/// A value owned by one thread (the daemon's state owner, or replay): no locks. Every call
/// returns what it did as `CaptureEvent`s, which the caller logs.
///
/// In the daemon, the gpsd source reads on its own thread and the state owner handles each
/// event in order:
///
///     let source = GPSDSource(endpoint: endpoint) { event in
///       stateQueue.async {
///         let clock = WallClockSynchronisation.isSynchronised() ? Date() : nil
///         for outcome in capture.handle(event, synchronisedWallClock: clock) { log(outcome) }
///       }
///     }
///     try capture.startCapture()          // shift started (or open at daemon start)
///     source.start()
///     ...
///     capture.stopCapture(reason: "shift ended")   // or "daemon stopping"
public struct CaptureService {
  public internal(set) var session: CaptureSessionID?
  /// Whether fixes are being captured (a shift is open, or a replay runs).
  public private(set) var isCapturing = false
  public internal(set) var statistics = CaptureStatistics()
  /// The receiver the current fixes come from, as gpsd named it.
  public private(set) var devicePath: String?
  public internal(set) var filter: RouteSampleFilter
  public private(set) var ageEstimator: FixAgeEstimator
  /// The failed save capture is holding on, when `holdsAfterSaveFailure`: until the owner
  /// calls `storeRecovered()`, fixes are dropped (counted) instead of each minting a
  /// session that its first save would end again, which is what a full disk did.
  public internal(set) var storeFailure: String?
  /// Whether a failed save holds capture (the daemon, which retries the store on its tick)
  /// or the next fix simply tries again (replay, which has no tick to retry on).
  public let holdsAfterSaveFailure: Bool

  /// The time of the last fix with a position in the current session (receiver's clock,
  /// or the arrival that dated it).
  var lastFixTime: Date?
  /// Whether the current session has had a fix with the receiver's own time: then one
  /// without is not dated by arrival (`ArrivalDating.decide`).
  var receiverDatesFixes = false
  /// The instant being gathered from gpsd's reports, judged once a later one arrives.
  var pendingInstant: FixInstant?
  /// The private places nothing is recorded in (`[Places] File=`, kind `private`).
  public var privatePlaces: PrivatePlaceGuard
  /// The session that was told its accuracy is assumed.
  private var assumedAccuracySaidFor: CaptureSessionID?
  let sink: any SampleSink
  private let makeSessionID: () -> CaptureSessionID

  public init(
    sink: any SampleSink, filter: RouteSampleFilter = RouteSampleFilter(),
    ageEstimator: FixAgeEstimator = FixAgeEstimator(), holdsAfterSaveFailure: Bool = false,
    privatePlaces: [Place] = [],
    makeSessionID: @escaping () -> CaptureSessionID = { CaptureSessionID(UUID().uuidString) }
  ) {
    self.sink = sink
    self.privatePlaces = PrivatePlaceGuard(places: privatePlaces)
    self.holdsAfterSaveFailure = holdsAfterSaveFailure
    self.filter = filter
    self.ageEstimator = ageEstimator
    self.makeSessionID = makeSessionID
  }

  // MARK: Capture on and off

  /// Starts capturing (a shift started, or the daemon started with a shift open): the
  /// filter judges from the sink's last kept sample, so a restarted daemon never keeps a
  /// fix that precedes or duplicates what is already stored.
  public mutating func startCapture() throws {
    filter.reset(lastRetained: try sink.lastRetainedSample())
    isCapturing = true
  }

  /// Stops capturing (shift ended, daemon stopping): the instant still being gathered is
  /// judged, and the session, if any, ends.
  public mutating func stopCapture(reason: String) -> [CaptureEvent] {
    var events: [CaptureEvent] = []
    endSession(.captureStopped(reason), into: &events)
    isCapturing = false
    storeFailure = nil
    return events
  }

  // MARK: What the gpsd source reports

  /// Handles one event of `GPSDSource`. `synchronisedWallClock` is the wall clock now, passed
  /// only when the caller knows it is synchronised (see `FixAgeEstimator`).
  /// `wallClock` is the wall clock as the caller read it beside the monotonic clock that
  /// stamped the event, synchronised or not: what dates a fix that came with no date
  /// (`ArrivalDating`).
  public mutating func handle(
    _ event: GPSDSourceEvent, synchronisedWallClock: Date? = nil, wallClock: ClockReading? = nil
  ) -> [CaptureEvent] {
    switch event {
    case .connected, .retrying: return []
    case let .disconnected(reason): return connectionLost(reason: reason)
    case let .report(report, arrival):
      return receive(report, arrival: arrival, synchronisedWallClock: synchronisedWallClock, wallClock: wallClock)
    }
  }

  /// The connection to gpsd ended: the fixes stopped.
  public mutating func connectionLost(reason: String) -> [CaptureEvent] {
    var events: [CaptureEvent] = []
    endSession(.connectionLost(reason), into: &events)
    devicePath = nil
    ageEstimator.reset()
    return events
  }

  /// One report. `arrival` is its arrival on a monotonic clock, in seconds (replay passes
  /// the fix's own time: see `GPSDLogReplay`); `wallClock`, when known, dates a fix that
  /// came with no date.
  public mutating func receive(
    _ report: GPSDReport, arrival: Double, synchronisedWallClock: Date? = nil, wallClock: ClockReading? = nil
  ) -> [CaptureEvent] {
    var events: [CaptureEvent] = []
    switch report {
    case let .version(version):
      // gpsd greets every connection with VERSION: whatever came before is another run.
      endSession(.newGPSD(release: version.release), into: &events)
      devicePath = nil
      ageEstimator.reset()
    case let .device(device):
      handleDevice(device, into: &events)
    case let .tpv(tpv):
      if let path = tpv.device { noteDevicePath(path, into: &events) }
      guard isCapturing else { break }
      let arrivalWall = wallClock.map { ArrivalWall(clock: $0, arrival: arrival) }
      handleFix(tpv, arrival: arrival, wallClock: synchronisedWallClock, arrivalWall: arrivalWall, into: &events)
    case .error, .other:
      break
    }
    return events
  }

  // MARK: Internals

  private mutating func handleDevice(_ device: GPSDDevice, into events: inout [CaptureEvent]) {
    switch device.activated {
    case false?:
      // A removal names the device removed; another device going away leaves ours alone.
      if devicePath == nil || device.path == nil || device.path == devicePath {
        endSession(.deviceDeactivated(path: device.path ?? devicePath), into: &events)
        devicePath = nil
        ageEstimator.reset()
      }
    case true?, nil:
      if let path = device.path { noteDevicePath(path, into: &events) }
    }
  }

  private mutating func noteDevicePath(_ path: String, into events: inout [CaptureEvent]) {
    if let current = devicePath, current != path {
      endSession(.deviceChanged(from: current, to: path), into: &events)
      ageEstimator.reset()
    }
    devicePath = path
  }

  /// Judges the instant still being gathered if its last report arrived at or before
  /// `arrival` (monotonic seconds, as passed to `receive`): a receiver that went quiet
  /// must not keep its last fix unjudged until the session ends. Ending a session or
  /// stopping capture judges it too.
  public mutating func judgePendingInstant(arrivedBy arrival: Double = .infinity) -> [CaptureEvent] {
    var events: [CaptureEvent] = []
    if let pending = pendingInstant, pending.arrival <= arrival { judgePendingInstant(into: &events) }
    return events
  }

  /// Whether an instant is being gathered (its verdict comes with the next report).
  public var hasPendingInstant: Bool { pendingInstant != nil }

  private mutating func judgePendingInstant(into events: inout [CaptureEvent]) {
    guard let instant = pendingInstant else { return }
    pendingInstant = nil
    judge(instant.candidate, into: &events)
  }

  private mutating func handleFix(
    _ tpv: GPSDTPV, arrival: Double, wallClock: Date?, arrivalWall: ArrivalWall?,
    into events: inout [CaptureEvent]
  ) {
    if dropsWhileStoreFails(into: &events) || withholdsInPrivatePlace(tpv, into: &events) { return }
    let age = tpv.time.flatMap {
      ageEstimator.age(ofFixAt: $0, arrival: arrival, synchronisedWallClock: wallClock)
    }
    if let time = tpv.time, time == pendingInstant?.time {
      if tpv.hasPosition { lastFixTime = time }
      pendingInstant?.merge(tpv, age: age, arrival: arrival)
      return
    }
    // The instant before is complete: judged first, so that its session is its own.
    judgePendingInstant(into: &events)
    if dropsWhileStoreFails(into: &events) { return }
    // Decided before a session is minted, as the session's first fix: its start is dated.
    let dating = dateByArrival(tpv.candidate(age: age), at: arrivalWall)
    if session == nil, tpv.hasPosition {
      let id = makeSessionID()
      session = id
      lastFixTime = nil
      receiverDatesFixes = false
      statistics.sessionsStarted += 1
      let reason = SessionStartReason.fixesStarted(device: devicePath)
      sink.captureSessionStarted(id, reason: reason, at: tpv.time ?? dating.datedTime)
      events.append(.sessionStarted(id, reason))
    }
    if tpv.hasPosition, let time = tpv.time {
      lastFixTime = time
      receiverDatesFixes = true
    }
    if tpv.time != nil, tpv.hasPosition {
      pendingInstant = FixInstant(tpv, age: age, arrival: arrival)
    } else {
      judgeUndated(tpv.candidate(age: age), at: arrivalWall, into: &events)
    }
  }

  mutating func judge(_ candidate: FixCandidate, into events: inout [CaptureEvent]) {
    statistics.received += 1
    switch filter.judge(candidate, session: session) {
    case let .rejected(reason):
      statistics.rejected[reason, default: 0] += 1
      events.append(.rejected(reason))
    case let .accepted(sample):
      do {
        try sink.save(sample)
        statistics.accepted += 1
        if sample.isHeld { statistics.held += 1 }
        if sample.isDatedByArrival { statistics.datedByArrival += 1 }
        if sample.isAccuracyAssumed {
          statistics.accuracyAssumed += 1
          if let session, assumedAccuracySaidFor != session {
            assumedAccuracySaidFor = session
            events.append(.accuracyAssumed(session, metres: sample.horizontalAccuracy))
          }
        }
        events.append(.accepted(sample))
      } catch {
        events += saveFailed(reason: String(describing: error))
      }
    }
  }

  /// The session ends with the vehicle standing still: its last still fix is kept, held,
  /// so the stretch reaches the end of capture. Best effort: the session is ending anyway.
  private mutating func keepClosingHeldSample(into events: inout [CaptureEvent]) {
    guard storeFailure == nil, let (closing, refusal) = filter.closingHeldSample() else { return }
    do {
      try sink.save(closing)
      // The fix was counted refused when it was judged; it is kept after all.
      statistics.rejected[refusal, default: 1] -= 1
      if statistics.rejected[refusal] == 0 { statistics.rejected[refusal] = nil }
      statistics.accepted += 1
      statistics.held += 1
      if closing.isAccuracyAssumed { statistics.accuracyAssumed += 1 }
      if closing.isDatedByArrival { statistics.datedByArrival += 1 }
      events.append(.accepted(closing))
    } catch {
      filter.reset(lastRetained: (try? sink.lastRetainedSample()) ?? nil)
    }
  }

  mutating func endSession(_ reason: SessionEndReason, into events: inout [CaptureEvent]) {
    judgePendingInstant(into: &events)
    guard let id = session else { return }
    if case .saveFailed = reason {} else { keepClosingHeldSample(into: &events) }
    session = nil
    sink.captureSessionEnded(id, reason: reason, at: lastFixTime)
    events.append(.sessionEnded(id, reason))
  }
}
