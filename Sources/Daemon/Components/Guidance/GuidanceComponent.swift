import ControlProtocol
import DashPilotCore
import FoundationEssentials
import Guidance
import PlatformSupport
import Routing

/// The daemon's guidance: follows a route loaded from a file (`route.load`) or planned by the
/// routing engine (`navigate`), feeds it every fix, and reroutes as the seed's "What Happens
/// After" says. What each input means is `GuidancePolicy`'s decision (pure); this adapter
/// hands it the commands, fixes, answers and ticks with the context's clocks, and carries out
/// its actions: events, speech, provider calls and answers.
///
/// Everything here runs on the loop thread. Provider calls run on one `BlockingWorker` of the
/// component's own, one at a time, so requests never overlap; each answer comes back to the
/// loop with the tag the policy gave its request. A route sent as a file's text is read by a
/// child process (`InlineRouteReader`) run from a second worker, so a slow routing request
/// never holds it up; its `route.load` is answered when the reading lands. Retries are
/// driven by `tick(now:)`, on the daemon's monotonic clock (see `RerouteTimeBase`).
public final class GuidanceComponent: DaemonComponent, FixObserver {
  public let name = "guidance"
  public let commands: Set<ControlCommand.Kind> = [.routeLoad, .routeClear, .navigate]

  /// A fix older than this (by the daemon's monotonic clock) is not fed to a newly loaded
  /// route.
  public static let freshFixAge = GuidancePolicy.freshFixAge

  private let configuration: DaemonConfiguration
  private var provider: (any RouteProvider)?
  private var context: DaemonContext?
  private var worker: BlockingWorker?
  private var speaker: Speaker?
  private var policy: GuidancePolicy
  /// The `navigate` request waiting for the provider's route.
  private var waitingNavigation: Responder?
  /// Runs `dashpilot-route-reader` for a route sent inline, apart from the routing worker.
  private var readingWorker: BlockingWorker?
  /// The reader of a route sent inline; nil for the one installed with the daemon (tests
  /// put another in).
  var routeReader: InlineRouteReader?
  /// The `route.load` whose inline route is being read.
  private var reading: (arguments: RouteLoadArguments, responder: Responder)?
  /// Guidance commands that came while a route sent inline was being read, in order.
  private var waitingCommands: [(ControlRequest, Responder)] = []

  /// `provider` replaces the one the configuration's routing keys describe (tests pass a
  /// provider with a recording HTTP client). The clocks are the context's.
  public init(configuration: DaemonConfiguration, provider: (any RouteProvider)? = nil) {
    self.configuration = configuration
    self.provider = provider
    policy = GuidancePolicy(language: configuration.language.wording)
  }

  // MARK: - DaemonComponent

  public func start(context: DaemonContext) throws {
    self.context = context
    let provider: any RouteProvider
    if let given = self.provider {
      provider = given
    } else {
      provider = try RoutingSettings(engine: configuration.routingProvider.rawValue, baseURL: configuration.routingURL)
        .makeProvider()
    }
    self.provider = provider
    policy.providerName = provider.name
    if let text = configuration.speechCommand {
      let command = try SpeechCommand(parsing: text)
      speaker = Speaker(command: command, clocks: context.clock.clocks) { [unowned self] problem in
        self.context?.announce(
          .guidanceSpeechFailed(.init(problem: problem)),
          "announcements will not be spoken reliably: \(problem)", priority: .warning)
      }
    }
    worker = BlockingWorker(name: "dashpilot.routing", mailbox: context.mailbox)
    readingWorker = BlockingWorker(name: "dashpilot.route-reader", mailbox: context.mailbox)
  }

  public func tick(now: ClockReading) {
    speaker?.reap()
    perform(policy.tick(now: now))
  }

  public func contribute(to status: inout StatusResult) {
    status.guidance = section
  }

  /// Where guidance stands (status's `guidance`); nil when no route is followed.
  var section: GuidanceSection? { policy.section }

  public func handle(_ request: ControlRequest, responder: Responder) {
    guard context != nil, worker != nil else {
      responder.fail(.unavailable, "guidance has not started")
      return
    }
    // Guidance commands take effect in the order they came: one behind a route still being
    // read waits for it (status and the other components' commands do not).
    guard reading == nil else {
      waitingCommands.append((request, responder))
      return
    }
    if case .routeLoad(let arguments) = request.command, let inline = arguments.inline {
      read(inline, for: arguments, replyingTo: responder)
      return
    }
    carryOut(request, responder: responder)
  }

  private func carryOut(_ request: ControlRequest, responder: Responder) {
    guard let context else { return }
    let now = context.clock.now()
    switch request.command {
    case .routeLoad(let arguments): perform(policy.load(arguments, now: now), replyingTo: responder)
    case .navigate(let arguments): perform(policy.navigate(arguments, now: now), replyingTo: responder)
    case .routeClear: perform(policy.clear(now: now), replyingTo: responder)
    default: responder.fail(.badRequest, "\(request.command.name) is not a guidance command")
    }
  }

  /// Reads a route sent as a file's text in `dashpilot-route-reader`, a child run from the
  /// reading worker (never the loop, never behind a routing request), and loads what it
  /// read when it lands; the command is answered then.
  private func read(_ inline: InlineRoute, for arguments: RouteLoadArguments, replyingTo responder: Responder) {
    guard let context, let readingWorker else { return }
    reading = (arguments, responder)
    let reader = routeReader ?? InlineRouteReader.installed()
    let bound = context.bind(self)
    let clocks = context.clock.clocks
    readingWorker.run({ reader.coordinates(of: inline, clocks: clocks) }) { result in
      bound.withValue { component in component.finishReading(result) }
    }
  }

  private func finishReading(_ result: Result<[WireCoordinate], ControlError>) {
    guard let (arguments, responder) = reading else { return }
    reading = nil
    switch result {
    case .success(let coordinates):
      var read = arguments
      read.coordinates = coordinates
      read.inline = nil
      if let now = context?.clock.now() { perform(policy.load(read, now: now), replyingTo: responder) }
    case .failure(let error):
      responder.fail(error)
    }
    handleWaitingCommands()
  }

  private func handleWaitingCommands() {
    while reading == nil, !waitingCommands.isEmpty {
      let (request, responder) = waitingCommands.removeFirst()
      handle(request, responder: responder)
    }
  }

  public func stop() {
    worker?.finish()
    readingWorker?.finish()
    speaker?.reap()
  }

  // MARK: - FixObserver

  public func observe(fix: GuidanceFix) {
    guard let now = context?.clock.now() else { return }
    perform(policy.observe(fix: fix, now: now))
  }

  public func observe(accepted sample: RouteSample) {
    policy.observe(accepted: sample)
  }

  // MARK: - Carrying out the policy's actions

  private func perform(_ actions: [GuidanceAction], replyingTo responder: Responder? = nil) {
    guard let context else { return }
    for action in actions {
      switch action {
      case .announce(let report):
        context.announce(report)
      case .speak(let text):
        speaker?.speak(text)
      case .planRoute(let request, let token):
        waitingNavigation = responder
        ask(for: request) { component, result, now in
          component.policy.navigationAnswered(result, token: token, now: now)
        }
      case .reroute(let id, let request, let generation):
        ask(for: request) { component, result, now in
          component.policy.rerouteAnswered(result, for: id, generation: generation, now: now)
        }
      case .reply(let reply):
        if let responder { answer(responder, reply) }
      case .answerNavigation(let reply):
        if let waiting = waitingNavigation { answer(waiting, reply) }
        waitingNavigation = nil
      case .log(let priority, let message):
        context.logger.log(priority, message, fields: .none)
      }
    }
  }

  /// Runs the provider call on the worker and hands its answer back to the policy on the
  /// loop, at the time it lands.
  private func ask(
    for request: RouteRequest,
    then answered:
      @escaping @Sendable (GuidanceComponent, Result<PlannedRoute, RouteFailure>, ClockReading) -> [GuidanceAction]
  ) {
    guard let provider, let worker, let context else { return }
    let bound = context.bind(self)
    worker.run({ provider.route(for: request) }) { result in
      bound.withValue { component in
        guard let now = component.context?.clock.now() else { return }
        component.perform(answered(component, result, now))
      }
    }
  }

  private func answer(_ responder: Responder, _ reply: GuidanceReply) {
    switch reply {
    case .route(let result): responder.succeed(result)
    case .acknowledged(let message): responder.succeed(Acknowledgement(message: message))
    case .failed(let error): responder.fail(error)
    }
  }
}
