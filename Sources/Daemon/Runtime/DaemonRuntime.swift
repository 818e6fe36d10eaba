import ControlProtocol
import DashPilotCore
import FoundationEssentials
import PlatformSupport

#if canImport(Glibc)
  import Glibc
#endif

/// The running daemon: the owner of all state, on the loop thread. It answers `status` and
/// `events` itself and routes every other command to the component that claims it.
final class DaemonRuntime {
  private let context: DaemonContext
  private let loop: EventLoop
  private let components: [any DaemonComponent]
  private let dispatcher: CommandDispatcher
  private let signals: SignalPipe
  private let startedAt: ClockReading
  private var server: ControlServer?
  private var lastWatchdog = -Double.infinity
  private var watchdogWithheldBy: String?
  private var clockWatch = ClockSynchronisationWatch()
  private var logger: any Logger { context.logger }

  init(context: DaemonContext, loop: EventLoop, components: [any DaemonComponent], signals: SignalPipe) throws {
    self.context = context
    self.loop = loop
    self.components = components
    self.signals = signals
    startedAt = context.clock.now()
    dispatcher = try CommandDispatcher(components: components)
    dispatcher.status = { [unowned self] in status() }
    context.statusHandler = { [unowned self] in status() }
    dispatcher.trustedNow = { [unowned context] in context.trustedNow(context.clock.now()) }
  }

  /// Starts the components (the store opens its database), serves the socket, reports
  /// READY=1 and handles events until SIGTERM or SIGINT.
  func run(listener: ListeningSocket, policy: AccessPolicy) throws {
    var started: [any DaemonComponent] = []
    do {
      for component in components {
        try component.start(context: context)
        started.append(component)
      }
    } catch {
      for component in started.reversed() { component.stop() }
      listener.close()
      throw StartupError("\(components[started.count].name) could not start: \(error)")
    }
    let configuration = context.configuration
    let server = ControlServer(
      listener: listener, loop: loop,
      limits: ControlServerLimits(maximumClients: configuration.maximumClients, idleTimeout: configuration.idleTimeout),
      policy: policy, logger: logger
    ) { [dispatcher] request, responder in dispatcher.dispatch(request, responder) }
    self.server = server
    context.publishHandler = { [unowned server] event in server.publish(event) }
    context.dispatchHandler = { [dispatcher] request, responder in dispatcher.dispatch(request, responder) }
    server.start()
    loop.watch(signals.readFD, events: Int16(POLLIN)) { [unowned self] _ in handleSignals() }
    loop.every(1) { [unowned self] in tick() }
    let wired = components.isEmpty ? "no components plugged in" : components.map(\.name).joined(separator: ", ")
    logger.notice("ready: answering on \(listener.path) (\(wired))")
    context.notifier.ready(status: "Answering on \(listener.path)")
    let now = context.clock.now()
    watchClock(now)
    feedWatchdogIfHealthy(now: now)
    loop.run()
  }

  // MARK: - Status

  func status() -> StatusResult {
    let configuration = context.configuration
    var status = StatusResult(
      daemon: DaemonSection(
        version: DashPilotVersion.string, pid: getpid(), startedAt: startedAt.wall,
        uptimeSeconds: ((context.clock.now().monotonic - startedAt.monotonic) * 10).rounded() / 10,
        socket: configuration.socketPath, config: context.configurationFile,
        state: dispatcher.isStopping ? "stopping" : "running", units: configuration.units.rawValue,
        clockSynchronised: clockWatch.synchronised),
      gpsd: GPSDSection(address: configuration.gpsd.description),
      capture: CaptureSection(),
      shift: nil,
      guidance: nil,
      store: StoreSection(path: configuration.databasePath))
    for component in components { component.contribute(to: &status) }
    return status
  }

  // MARK: - Timers and signals

  private func tick() {
    let now = context.clock.tick()
    watchClock(now)
    for component in components { component.tick(now: now) }
    feedWatchdogIfHealthy(now: now)
  }

  /// The journal hears when the wall clock is not, or stops or starts being, synchronised.
  private func watchClock(_ now: ClockReading) {
    guard let change = clockWatch.observe(synchronised: now.isWallClockSynchronised) else { return }
    let sentence = ClockSynchronisationWatch.sentence(change, dateByArrival: context.configuration.filter.dateByArrival)
    if change == .gained { logger.notice(sentence) } else { logger.warning(sentence) }
  }

  /// WATCHDOG=1 means the loop turned and every component made progress; it is withheld
  /// (and systemd restarts the daemon) when one did not.
  private func feedWatchdogIfHealthy(now: ClockReading) {
    guard let interval = context.notifier.watchdogInterval else { return }
    if let stuck = components.first(where: { !$0.isMakingProgress(now: now) }) {
      if watchdogWithheldBy != stuck.name {
        logger.error(
          "withholding the watchdog: \(stuck.name) is not making progress", fields: LogFields(reason: "watchdog"))
        watchdogWithheldBy = stuck.name
      }
      return
    }
    if watchdogWithheldBy != nil {
      logger.notice("feeding the watchdog again: every component is making progress")
      watchdogWithheldBy = nil
    }
    guard now.monotonic - lastWatchdog >= min(interval / 3, 1) - 0.05 else { return }
    lastWatchdog = now.monotonic
    context.notifier.watchdog()
  }

  private func handleSignals() {
    for number in signals.take() {
      switch number {
      case SIGHUP:
        context.announce(
          .daemonHangup, "SIGHUP received: dashpilotd reloads nothing; restart it to apply configuration changes")
      case SIGTERM, SIGINT:
        stop(signalName: number == SIGTERM ? "SIGTERM" : "SIGINT")
        return
      default:
        break
      }
    }
  }

  /// Stops as SIGTERM would; for embedding and tests. Call on the loop thread.
  func requestStop(reason: String) { stop(signalName: reason) }

  /// STOPPING=1, tell followers, flush every component, close the socket.
  private func stop(signalName: String) {
    guard !dispatcher.isStopping else { return }
    dispatcher.isStopping = true
    context.notifier.stopping(status: "Stopping on \(signalName)")
    context.announce(.daemonStopping(.init(signalName.lowercased())), "stopping on \(signalName)")
    for component in components.reversed() { component.stop() }
    server?.shutDown()
    logger.notice("stopped cleanly")
    loop.stop()
  }
}

struct StartupError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}
