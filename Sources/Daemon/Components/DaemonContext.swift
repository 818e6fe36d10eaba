import ControlProtocol
import FoundationEssentials
import PlatformSupport

/// What the daemon hands its components: configuration, logging, the clocks, the loop's
/// mailbox, and the one call that tells both the journal and `events` followers that
/// something happened. Loop thread only (use `bind` to carry a value to another thread and back).
public final class DaemonContext {
  public let configuration: DaemonConfiguration
  /// The configuration file read, nil when the built-in defaults were used.
  public let configurationFile: String?
  public let logger: any Logger
  public let notifier: any ServiceNotifier
  /// The one set of clocks every component reads: the loop's, which its timers run on
  /// (tests hand the loop their own).
  public let clock: LoopClock
  let loop: EventLoop
  var publishHandler: (ControlEvent) -> Void = { _ in }
  var dispatchHandler: (ControlRequest, Responder) -> Void = { _, responder in
    responder.fail(.unavailable, "the daemon is not answering requests yet")
  }
  var statusHandler: () -> StatusResult? = { nil }
  private var eventObservers: [(ControlEvent) -> Void] = []
  /// The receiver's latest time and when (monotonic) it was read: the time the box can
  /// trust while its wall clock is not synchronised.
  private var receiverTime: (time: Date, monotonic: Double)?

  init(
    configuration: DaemonConfiguration, configurationFile: String?, logger: any Logger,
    notifier: any ServiceNotifier, loop: EventLoop
  ) {
    self.configuration = configuration
    self.configurationFile = configurationFile
    self.logger = logger
    self.notifier = notifier
    self.loop = loop
    clock = loop.clock
  }

  /// Posts work to the loop thread from any thread.
  public var mailbox: LoopMailbox { loop.mailbox }

  /// Wraps a loop-thread value (a component, a `Responder`) so work posted from another
  /// thread can reach it.
  public func bind<Value>(_ value: Value) -> LoopBound<Value> { loop.bind(value) }

  /// Runs `handler` on the loop every `interval` seconds (besides the 1 s `tick`).
  public func every(_ interval: TimeInterval, _ handler: @escaping () -> Void) { loop.every(interval, handler) }

  /// Runs `handler` on the loop once, `delay` seconds from now.
  public func after(_ delay: TimeInterval, _ handler: @escaping () -> Void) { loop.after(delay, handler) }

  /// One thing that happened: a line in the journal (with the event's session, shift and
  /// reason as its structured fields) and the event to every `events` follower. `time` is
  /// the wall clock now unless the caller read it already.
  public func announce(
    _ event: DaemonEvent, _ message: String, priority: LogPriority = .notice, at time: Date? = nil
  ) {
    logger.log(priority, message, fields: LogFields(session: event.session, shift: event.shift, reason: event.reason))
    let announced = ControlEvent(event, time: time ?? clock.now().wall, message: message)
    publishHandler(announced)
    for observer in eventObservers { observer(announced) }
  }

  /// Registers `observer` to be told of every event announced, after the socket's
  /// followers (the uplink publishes some to the fleet). Loop thread only.
  public func addEventObserver(_ observer: @escaping (ControlEvent) -> Void) {
    eventObservers.append(observer)
  }

  /// Notes the receiver's time of a fix read now: what `trustedNow` falls back on.
  public func noteReceiverTime(_ time: Date, at reading: ClockReading) {
    receiverTime = (time, reading.monotonic)
  }

  /// The time now as the box can trust it: the wall clock when it is synchronised, else
  /// the receiver's latest time carried forward by the monotonic clock; nil when neither
  /// is known (a box without a real-time clock, before its first fix).
  public func trustedNow(_ reading: ClockReading) -> Date? {
    reading.synchronisedWall ?? receiverNow(reading)
  }

  /// The receiver's time now: its latest fix's time (kept or not) carried forward by the
  /// monotonic clock, the clock a shift's rows are on; nil before the first fix.
  public func receiverNow(_ reading: ClockReading) -> Date? {
    receiverTime.map { $0.time.addingTimeInterval(max(0, reading.monotonic - $0.monotonic)) }
  }

  /// Answers `request` exactly as the control socket would, through `responder`: for
  /// carriers of the socket's requests other than the socket (a command channel).
  public func dispatch(_ request: ControlRequest, to responder: Responder) {
    dispatchHandler(request, responder)
  }

  /// The daemon's status as `status` would answer it now, every component's part filled
  /// in: what a component reads of another's state, so that it holds no other component.
  /// Nil until the runtime is made. Loop thread only, and not from `contribute(to:)`.
  public func status() -> StatusResult? { statusHandler() }

  /// Sets the one-line status systemd shows in `systemctl status dashpilotd`.
  public func setServiceStatus(_ text: String) { notifier.status(text) }
}
