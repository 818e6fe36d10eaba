import ControlProtocol
import FoundationEssentials
import PlatformSupport

/// A part of the daemon plugged into the event loop: the store, capture, guidance,
/// routing. Every method is called on the loop thread, so a component may keep plain
/// mutable state. Blocking work (libgps's connect, SQLite writes of a flush, HTTP) runs on a
/// thread the component owns and posts results back with `context.mailbox.post`.
public protocol DaemonComponent: AnyObject {
  /// A short name for the journal ("store", "capture").
  var name: String { get }
  /// The kinds of command this component answers; two components may not claim the same
  /// one.
  var commands: Set<ControlCommand.Kind> { get }
  /// Opens what the component needs before the daemon reports READY=1 (the store opens
  /// the database here). Throwing stops start-up with the error's description.
  func start(context: DaemonContext) throws
  /// Once a second, with the clocks read for this tick (decide deadlines by `monotonic`).
  func tick(now: ClockReading)
  /// Whether the component is making progress: the watchdog is only fed when all say yes,
  /// so a wedged store gets the daemon restarted. Never "has a fix": a parked car in a
  /// garage is healthy.
  func isMakingProgress(now: ClockReading) -> Bool
  /// Fills the component's part of `status`.
  func contribute(to status: inout StatusResult)
  /// Answers a command of one of the kinds in `commands`; the caller has already checked
  /// permission.
  func handle(_ request: ControlRequest, responder: Responder)
  /// SIGTERM: flush and close. Called once, in reverse start order.
  func stop()
}

extension DaemonComponent {
  public var commands: Set<ControlCommand.Kind> { [] }
  public func tick(now: ClockReading) {}
  public func isMakingProgress(now: ClockReading) -> Bool { true }
  public func contribute(to status: inout StatusResult) {}
  public func handle(_ request: ControlRequest, responder: Responder) {
    responder.fail(.unavailable, "\(name) does not answer \(request.command.name)")
  }
  public func stop() {}
}

/// Makes the daemon's components from its configuration; the lead's wiring in
/// `dashpilotd/main.swift` supplies it. Components are started in this order and
/// stopped in reverse.
public typealias ComponentFactory = (DaemonConfiguration) throws -> [any DaemonComponent]
