import ControlProtocol
import DashPilotCore
import Foundation
import GPSD
import Guidance
import PlatformSupport
import Store
import Synchronization
import TestSupport

@testable import Daemon

/// Keeps every line logged, for assertions on what the journal would get.
final class LinesLogger: Logger {
  let lines = Mutex<[String]>([])
  func log(_ priority: LogPriority, _ message: String, fields: LogFields) {
    lines.withLock { $0.append(message) }
  }
  var all: [String] { lines.withLock { $0 } }
}

/// A monotonic clock that moves only when the test says so.
final class SteppedClock: Sendable {
  private let reading = Mutex<TimeInterval>(1_000)
  var seconds: TimeInterval { reading.withLock { $0 } }
  func advance(by step: TimeInterval) { reading.withLock { $0 += step } }
}

/// Told what guidance would be told.
final class ObservedFixes: FixObserver {
  var fixes: [GuidanceFix] = []
  var accepted: [RouteSample] = []
  func observe(fix: GuidanceFix) { fixes.append(fix) }
  func observe(accepted sample: RouteSample) { accepted.append(sample) }
}

/// A `RecordingComponent` on a real SQLite file, started with a real context, whose gpsd
/// events the test hands in itself (its own source points at a closed port). Every sample
/// is written at once (a batch of one), so the store can be checked after each fix.
final class RecordingHarness {
  let directory: URL
  let databasePath: String
  let logger = LinesLogger()
  let observed = ObservedFixes()
  let component: RecordingComponent
  private let loop: EventLoop
  private var sessionCounter = 0
  /// The component's monotonic clock, in seconds: the test moves it (the store retry's
  /// back-off runs on it).
  let monotonic = SteppedClock()
  /// The context's clocks: the real wall clock, the stepped monotonic one, and a wall clock
  /// never synchronised.
  let clock: LoopClock

  init(
    directory: URL? = nil, sessionPrefix: String = "s", shiftStart: ShiftStartMode = .manual,
    endAfterStop: TimeInterval = 2700
  ) throws {
    let directory = try directory ?? TestPaths.temporaryDirectory("recording")
    self.directory = directory
    databasePath = directory.appendingPathComponent("dashpilot.sqlite").path
    var configuration = DaemonConfiguration()
    configuration.databasePath = databasePath
    configuration.shiftStart = shiftStart
    configuration.shiftPolicy.endAfterStop = endAfterStop
    configuration.gpsd = ServiceAddress(host: "127.0.0.1", port: 1)
    clock = LoopClock(
      Clocks(wall: { Date() }, monotonic: { [monotonic] in monotonic.seconds }, isWallClockSynchronised: { false }))
    loop = try EventLoop(clock: clock)
    let counter = Mutex(0)
    component = RecordingComponent(
      configuration: configuration, batchPolicy: SampleBatchPolicy(maximumPendingAge: 1, maximumPendingCount: 1),
      makeSessionID: {
        let n = counter.withLock {
          $0 += 1
          return $0
        }
        return CaptureSessionID("\(sessionPrefix)\(n)")
      })
    component.addFixObserver(observed)
    let context = DaemonContext(
      configuration: configuration, configurationFile: nil, logger: logger, notifier: RecordingNotifier(), loop: loop)
    try component.start(context: context)
  }

  var store: SampleStore { component.store! }

  func status() -> StatusResult {
    var status = StatusResult(
      daemon: DaemonSection(
        version: "test", pid: 1, startedAt: Date(), uptimeSeconds: 0, socket: "", config: nil, state: "running",
        units: "miles"),
      gpsd: GPSDSection(address: ""), capture: CaptureSection(), shift: nil, guidance: nil,
      store: StoreSection(path: databasePath))
    component.contribute(to: &status)
    return status
  }

  /// The reports gpsd sends a new client, then a receiver coming up.
  func connect(device: String = "/dev/ttyUSB0") {
    component.handle(.connected(GPSDEndpoint(host: "127.0.0.1", port: 1)))
    component.handle(.report(.version(GPSDVersion(release: "3.22", protocolMajor: 3, protocolMinor: 14)), arrival: 0))
    component.handle(.report(.device(GPSDDevice(path: device, activated: true)), arrival: 0))
  }

  /// When the drive's first fix was taken: now (to the millisecond the store keeps), so a
  /// shift opened now has a window that covers the drive.
  let driveStart = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 * 1000).rounded() / 1000)

  /// A 3D fix `second` seconds into a drive east along 51.5° N at 10 m/s (or, given
  /// `along`, that many metres along it at `speed`), one report for its instant: judged at
  /// once, as if gpsd's next report had shown it complete.
  func fix(
    _ second: Int, eph: Double? = 5, mode: FixCandidate.Mode = .threeDimensional, along: Double? = nil,
    speed: Double = 10
  ) {
    let metresPerDegree = 111_195.08 * cos(51.5 * .pi / 180)
    let tpv = GPSDTPV(
      mode: mode, time: driveStart.addingTimeInterval(Double(second)), latitude: 51.5,
      longitude: -0.12 + (along ?? Double(second) * 10) / metresPerDegree, eph: eph, speed: speed, track: 90,
      device: "/dev/ttyUSB0")
    component.handle(.report(.tpv(tpv), arrival: Double(second)))
    component.judgePendingInstant(now: clock.now())
  }

  /// Moves the monotonic clock on by `seconds` and runs the component's tick.
  func tick(after seconds: TimeInterval) {
    monotonic.advance(by: seconds)
    component.tick(now: clock.tick())
  }

  func stop() { component.stop() }

  func remove() { try? FileManager.default.removeItem(at: directory) }
}
