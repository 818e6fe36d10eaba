import ControlProtocol
import DashPilotCore
import FoundationEssentials
import Guidance
import PlatformSupport
import Routing

/// The daemon's guidance: follows a route loaded from a file (`route.load`) or planned by the
/// routing engine (`navigate`), feeds it every fix, and reroutes as the seed's "What Happens
/// After" says, through `GuidanceSession` (engine plus `RerouteCoordinator`), so the daemon and
/// an offline replay make the same decisions.
///
/// Everything here runs on the loop thread. Provider calls run on one `BlockingWorker` of the
/// component's own, one at a time, so requests never overlap; each answer comes back to the
/// loop tagged with the route it was asked for (`generation`), so an answer for a route since
/// cleared or replaced is dropped, and the coordinator's request ids discard an answer to a
/// reroute the car no longer needs. Retries are driven by `tick(now:)`, the daemon's clock.
///
/// Every engine event and every action goes to the journal and to `events` followers as a
/// `guidance.*` event; announcements are also spoken through the configured speech command.
public final class GuidanceComponent: DaemonComponent, FixObserver {
  public let name = "guidance"
  public let commands: Set<ControlCommand> = [.routeLoad, .routeClear, .navigate]

  /// A fix older than this (by the daemon's monotonic clock) is not fed to a newly loaded
  /// route: gpsd may have been gone for an hour.
  public static let freshFixAge: TimeInterval = 5

  private let configuration: DaemonConfiguration
  private let language: Guidance.AnnouncementLanguage
  private let clock: () -> Date
  private var provider: (any RouteProvider)?
  private var context: DaemonContext?
  private var worker: BlockingWorker?
  private var speaker: Speaker?

  /// The route followed, if any.
  private var drive: Drive?
  /// Bumped whenever the followed route changes (load, clear, navigate answered), so a
  /// provider answer for an earlier route is recognised when it lands.
  private var generation = 0
  private var pendingNavigation: PendingNavigation?
  /// Counts navigate requests, so an answer is matched to the one still pending.
  private var navigations = 0
  private var latestFix: GuidanceFix?
  private var latestFixMonotonic: Double?
  private var latestAccepted: RouteSample?

  private struct Drive {
    var session: GuidanceSession
    var mode: TravelMode
    var destination: GeoCoordinate
    /// "file", or the provider that planned it.
    var source: String
    var name: String?
    /// When each reroute request was handed to the worker (monotonic seconds).
    var requestStarted: [RerouteRequestID: Double] = [:]
    /// The last reroute's outcome, as a sentence for status.
    var lastReroute: String?
    /// When the engine last said off route (monotonic seconds): the start of the reroute
    /// latency the driver feels.
    var departedAt: Double?
  }

  private struct PendingNavigation {
    var token: Int
    var responder: Responder
    var request: RouteRequest
  }

  /// `provider` replaces the one the configuration's routing keys describe (tests pass a
  /// provider with a recording HTTP client); `clock` is the time answers are stamped with
  /// (the tick passes its own).
  public init(
    configuration: DaemonConfiguration, provider: (any RouteProvider)? = nil, clock: @escaping () -> Date = Date.init
  ) {
    self.configuration = configuration
    self.language = configuration.language.wording
    self.provider = provider
    self.clock = clock
  }

  // MARK: - DaemonComponent

  public func start(context: DaemonContext) throws {
    self.context = context
    if provider == nil {
      let settings = try RoutingSettings(
        engine: configuration.routingProvider.rawValue, baseURL: configuration.routingURL)
      provider = settings.makeProvider()
    }
    if let text = configuration.speechCommand {
      let command = try SpeechCommand(parsing: text)
      speaker = Speaker(command: command) { [unowned self] problem in
        self.context?.announce(
          "guidance.speech_failed", "announcements will not be spoken reliably: \(problem)", priority: .warning,
          fields: LogFields(reason: "speech_failed"), data: ["problem": .string(problem)])
      }
    }
    worker = BlockingWorker(name: "dashpilot.routing", mailbox: context.mailbox)
  }

  public func tick(now: Date) {
    speaker?.reap()
    guard var drive else { return }
    let step = drive.session.tick(now: now)
    self.drive = drive
    perform(step, now: now, eventsFirst: false)
  }

  public func contribute(to status: inout StatusResult) {
    guard let drive else { return }
    let engine = drive.session.engine
    status.guidance = GuidanceSection(
      mode: drive.mode.rawValue, phase: engine.phase.rawValue, distanceRemainingMetres: engine.remaining,
      reroute: rerouteSentence(drive), distanceAlongMetres: engine.along,
      destination: WireCoordinate(lat: drive.destination.latitude, lon: drive.destination.longitude),
      source: drive.source)
  }

  public func handle(_ request: ControlRequest, responder: Responder) {
    switch request.arguments {
    case .routeLoad(let arguments): load(arguments, responder: responder)
    case .navigate(let arguments): navigate(arguments, responder: responder)
    default:
      guard request.command == .routeClear else {
        responder.fail(.badRequest, "\(request.command.rawValue) is not a guidance command")
        return
      }
      clear(responder: responder)
    }
  }

  public func stop() {
    worker?.finish()
    speaker?.reap()
  }

  // MARK: - FixObserver

  public func observe(fix: GuidanceFix) {
    latestFix = fix
    latestFixMonotonic = MonotonicClock.now()
    guard var drive else { return }
    let now = clock()
    let step = drive.session.update(fix, now: now)
    self.drive = drive
    perform(step, now: now, eventsFirst: true)
  }

  public func observe(accepted sample: RouteSample) {
    latestAccepted = sample
  }

  // MARK: - Commands

  private func load(_ arguments: RouteLoadArguments, responder: Responder) {
    let mode = TravelMode(arguments.mode)
    let route: GuidanceRoute
    do {
      route = try GuidanceRoute(arguments.coordinates.map { GeoCoordinate(latitude: $0.lat, longitude: $0.lon) })
    } catch {
      responder.fail(.badArguments, "route.load: \(error.description)")
      return
    }
    cancelPendingNavigation(because: "a route was loaded")
    let session = GuidanceSession(route: route, mode: mode, providerName: provider?.name ?? "none")
    install(
      Drive(session: session, mode: mode, destination: route.end, source: "file", name: arguments.name),
      announcing: "guidance.route_loaded",
      "following \(arguments.name.map { "\"\($0)\"" } ?? "a loaded route") (\(mode.rawValue), \(route.points.count) points, \(Self.metres(route.length)))"
    )
    responder.succeed(
      RouteResult(
        name: arguments.name, mode: arguments.mode, points: route.points.count, lengthMetres: route.length,
        source: "file"))
  }

  private func clear(responder: Responder) {
    cancelPendingNavigation(because: "the route was cleared")
    guard drive != nil else {
      responder.succeed(Acknowledgement(message: "No route was being followed."))
      return
    }
    drive = nil
    generation += 1
    context?.announce("guidance.cleared", "route cleared: no route is followed")
    responder.succeed(Acknowledgement(message: "Route cleared: no route is followed now."))
  }

  private func navigate(_ arguments: NavigateArguments, responder: Responder) {
    guard let provider, let worker, let context else {
      responder.fail(.unavailable, "guidance has not started")
      return
    }
    guard pendingNavigation == nil else {
      responder.fail(.busy, "navigate: a route is already being planned; try again when it is answered")
      return
    }
    guard let origin = latestAccepted else {
      responder.fail(
        .unavailable,
        "navigate: no position has been accepted yet, so there is no start for a route (is gpsd delivering fixes?)")
      return
    }
    let mode = TravelMode(arguments.mode)
    let config = GuidanceConfig.preset(for: mode)
    let course = GuidanceFix(
      timestamp: origin.timestamp, coordinate: origin.coordinate, accuracy: origin.horizontalAccuracy,
      speed: origin.speed, course: origin.course
    ).trustedCourse(minimumSpeed: config.courseTrustSpeed)
    let request = RouteRequest(
      origin: origin.coordinate, course: course,
      destination: GeoCoordinate(latitude: arguments.destination.lat, longitude: arguments.destination.lon), mode: mode)
    navigations += 1
    let token = navigations
    pendingNavigation = PendingNavigation(token: token, responder: responder, request: request)
    context.announce(
      "guidance.navigate_requested",
      "asking \(provider.name) for a \(mode.rawValue) route to \(Self.describe(request.destination))",
      priority: .info, data: Self.requestData(request))
    let started = MonotonicClock.now()
    let bound = context.bind(self)
    worker.run({ provider.route(for: request) }) { result in
      bound.withValue { $0.navigationAnswered(result, token: token, started: started) }
    }
  }

  private func navigationAnswered(_ result: Result<PlannedRoute, RouteFailure>, token: Int, started: Double) {
    guard let pending = pendingNavigation, pending.token == token else { return }
    pendingNavigation = nil
    let latency = Self.milliseconds(since: started)
    let request = pending.request
    let planned: PlannedRoute
    switch result {
    case .failure(let failure):
      failNavigation(pending, failure)
      return
    case .success(let answer):
      planned = answer
    }
    guard planned.mode == request.mode, planned.provider == provider?.name else {
      failNavigation(
        pending,
        RouteFailure(
          .mismatchedProvider,
          "asked \(provider?.name ?? "?") for \(request.mode.rawValue), answered by \(planned.provider) for \(planned.mode.rawValue)"
        ))
      return
    }
    let route: GuidanceRoute
    do {
      route = try GuidanceRoute(planned.coordinates)
    } catch {
      failNavigation(pending, RouteFailure(.unreadableResponse, "\(planned.provider): \(error.description)"))
      return
    }
    let session = GuidanceSession(
      route: route, mode: request.mode, providerName: planned.provider, destination: request.destination)
    install(
      Drive(session: session, mode: request.mode, destination: request.destination, source: planned.provider),
      announcing: "guidance.route_planned",
      "following a \(request.mode.rawValue) route from \(planned.provider) to \(Self.describe(request.destination)) (\(route.points.count) points, \(Self.metres(route.length)))",
      data: [
        "latency_ms": .number(latency),
        "first_bearing": .number(Self.rounded(NewRouteCheck.initialBearing(of: route, over: 50))),
      ])
    pending.responder.succeed(
      RouteResult(
        name: nil, mode: WireTravelMode(request.mode), points: route.points.count, lengthMetres: route.length,
        source: planned.provider))
  }

  private func failNavigation(_ pending: PendingNavigation, _ failure: RouteFailure) {
    context?.announce(
      "guidance.navigate_failed", "no route to \(Self.describe(pending.request.destination)): \(failure.detail)",
      priority: .warning, fields: LogFields(reason: failure.kind.rawValue),
      data: ["failure": .string(failure.kind.rawValue), "detail": .string(failure.detail)])
    let code: ControlError.Code = failure.kind == .noRoute ? .notFound : .failed
    pending.responder.fail(code, "navigate: \(failure.detail)")
  }

  private func cancelPendingNavigation(because reason: String) {
    guard let pending = pendingNavigation else { return }
    pendingNavigation = nil
    pending.responder.fail(.conflict, "navigate: cancelled because \(reason)")
  }

  /// Follows `drive` from now on, fed the latest fix at once when it is fresh.
  private func install(
    _ newDrive: Drive, announcing type: String, _ message: String, data: [String: JSONValue] = [:]
  ) {
    generation += 1
    drive = newDrive
    var fields = data
    fields["mode"] = .string(newDrive.mode.rawValue)
    fields["source"] = .string(newDrive.source)
    fields["points"] = .number(Double(newDrive.session.engine.route.points.count))
    fields["length_m"] = .number(Self.rounded(newDrive.session.engine.route.length))
    fields["destination"] = Self.json(newDrive.destination)
    context?.announce(type, message, data: fields, at: clock())
    guard let fix = latestFix, let seen = latestFixMonotonic,
      MonotonicClock.now() - seen <= Self.freshFixAge
    else { return }
    observe(fix: fix)
  }

  // MARK: - Reroutes

  private func dispatch(_ id: RerouteRequestID, _ request: RouteRequest) {
    guard let provider, let worker, let context, var drive else { return }
    drive.requestStarted[id] = MonotonicClock.now()
    drive.lastReroute = nil
    self.drive = drive
    var data = Self.requestData(request)
    data["request"] = .string(id.description)
    let now = clock()
    data["at"] = .string(Self.iso(now))
    context.announce(
      "guidance.reroute_requested",
      "asking \(provider.name) for a new \(request.mode.rawValue) route (\(id))"
        + (request.course.map { ", heading \(Int($0.rounded()))°" } ?? ", no trustworthy heading"),
      data: data, at: now)
    let token = generation
    let bound = context.bind(self)
    worker.run({ provider.route(for: request) }) { result in
      bound.withValue { $0.rerouteAnswered(result, for: id, token: token) }
    }
  }

  private func rerouteAnswered(_ result: Result<PlannedRoute, RouteFailure>, for id: RerouteRequestID, token: Int) {
    guard token == generation, var drive else {
      context?.logger.info("dropped the answer to \(id): its route is no longer followed")
      return
    }
    var checked = result
    if case .success(let planned) = result, let route = try? GuidanceRoute(planned.coordinates),
      let problem = NewRouteCheck(config: drive.session.engine.config).problem(
        with: route, from: drive.session.coordinator.latestFix)
    {
      checked = .failure(RouteFailure(.noRoute, "\(planned.provider): \(problem)"))
    }
    let now = clock()
    let step = drive.session.answer(checked, for: id, now: now)
    self.drive = drive
    perform(step, now: now, eventsFirst: false, answering: id)
  }

  // MARK: - Acting on a step

  private func perform(
    _ step: GuidanceSession.Step, now: Date, eventsFirst: Bool, answering answered: RerouteRequestID? = nil
  ) {
    if eventsFirst { for event in step.events { report(event, now: now) } }
    for action in step.actions { act(action, now: now, answering: answered) }
    if !eventsFirst { for event in step.events { report(event, now: now) } }
  }

  private func report(_ timed: TimedGuidanceEvent, now: Date) {
    guard let context else { return }
    var data: [String: JSONValue] = ["fix_time": .string(Self.iso(timed.timestamp)), "at": .string(Self.iso(now))]
    let message: String
    var priority = LogPriority.notice
    switch timed.event {
    case .joined:
      message = "joined the route"
    case .offRoute(let lateral):
      drive?.departedAt = MonotonicClock.now()
      data["lateral_m"] = lateral.isFinite ? .number(Self.rounded(lateral)) : .null
      message = lateral.isFinite ? "off route: \(Self.metres(lateral)) from it" : "off route: nowhere near it"
    case .backOnRoute:
      message = "back on the route"
    case .progress(let along, let remaining):
      data["along_m"] = .number(Self.rounded(along))
      data["remaining_m"] = .number(Self.rounded(remaining))
      message = "\(Self.metres(along)) along the route, \(Self.metres(remaining)) to go"
      priority = .info
    case .arrived:
      message = "arrived at the end of the route"
    }
    context.announce("guidance.\(timed.event.name)", message, priority: priority, data: data, at: now)
  }

  private func act(_ action: RerouteAction, now: Date, answering answered: RerouteRequestID?) {
    guard let context else { return }
    let at: JSONValue = .string(Self.iso(now))
    switch action {
    case .announce(let announcement):
      let text = announcement.text(for: language)
      context.announce(
        "guidance.announcement", text,
        data: ["kind": .string(announcement.kind.rawValue), "language": .string(language.rawValue), "at": at], at: now)
      speaker?.speak(text)
    case .requestRoute(let id, let request):
      dispatch(id, request)
    case .cancelled(let id):
      noteReroute("cancelled: the car came back to the route")
      context.announce(
        "guidance.reroute_cancelled", "\(id) is no longer needed: back on the route; its answer will be discarded",
        data: ["request": .string(id.description), "at": at], at: now)
    case .discarded(let id):
      context.announce(
        "guidance.reroute_discarded", "discarded the late answer to \(id)", priority: .info,
        data: ["request": .string(id.description), "at": at], at: now)
    case .installRoute(let route, _):
      var data: [String: JSONValue] = [
        "points": .number(Double(route.points.count)), "length_m": .number(Self.rounded(route.length)),
        "first_bearing": .number(Self.rounded(NewRouteCheck.initialBearing(of: route, over: 50))),
        "start": Self.json(route.start), "at": at,
      ]
      if let answered, let started = drive?.requestStarted[answered] {
        data["request"] = .string(answered.description)
        data["latency_ms"] = .number(Self.milliseconds(since: started))
      }
      if let departed = drive?.departedAt {
        data["since_off_route_ms"] = .number(Self.milliseconds(since: departed))
      }
      noteReroute("new route installed: \(Self.metres(route.length))")
      context.announce(
        "guidance.rerouted", "following a new route (\(route.points.count) points, \(Self.metres(route.length)))",
        data: data, at: now)
    case .retryScheduled(let at, let failure):
      noteReroute("\(failure.kind.rawValue): \(failure.detail); asking again at \(Self.iso(at))")
      context.announce(
        "guidance.reroute_failed",
        "no new route (\(failure.detail)); asking again in \(Int((at.timeIntervalSince(now)).rounded())) s",
        priority: .warning, fields: LogFields(reason: failure.kind.rawValue),
        data: [
          "failure": .string(failure.kind.rawValue), "detail": .string(failure.detail), "permanent": .bool(false),
          "retry_at": .string(Self.iso(at)), "at": .string(Self.iso(now)),
        ], at: now)
    case .gaveUp(let failure):
      noteReroute("gave up: \(failure.kind.rawValue): \(failure.detail)")
      context.announce(
        "guidance.reroute_failed",
        "no new route (\(failure.detail)); waiting cannot fix this, so no more are asked for",
        priority: .warning, fields: LogFields(reason: failure.kind.rawValue),
        data: [
          "failure": .string(failure.kind.rawValue), "detail": .string(failure.detail), "permanent": .bool(true),
          "at": at,
        ], at: now)
    }
  }

  private func noteReroute(_ sentence: String) {
    drive?.lastReroute = sentence
  }

  private func rerouteSentence(_ drive: Drive) -> String? {
    let coordinator = drive.session.coordinator
    if let id = coordinator.inFlight, coordinator.isOffRoute {
      return "asking \(coordinator.providerName) for a new route (\(id))"
    }
    return drive.lastReroute
  }

  // MARK: - Formatting

  static func metres(_ value: Double) -> String { "\(Int(value.rounded())) m" }
  static func rounded(_ value: Double) -> Double { (value * 10).rounded() / 10 }
  static func milliseconds(since started: Double) -> Double { rounded((MonotonicClock.now() - started) * 1000) }

  static func describe(_ coordinate: GeoCoordinate) -> String {
    "\(FixedDecimal.text(coordinate.latitude, digits: 6) ?? "?"),\(FixedDecimal.text(coordinate.longitude, digits: 6) ?? "?")"
  }

  static func json(_ coordinate: GeoCoordinate) -> JSONValue {
    .object(["lat": .number(coordinate.latitude), "lon": .number(coordinate.longitude)])
  }

  static func requestData(_ request: RouteRequest) -> [String: JSONValue] {
    [
      "origin": json(request.origin), "destination": json(request.destination), "mode": .string(request.mode.rawValue),
      "course": request.course.map { .number(rounded($0)) } ?? .null,
    ]
  }

  static func iso(_ date: Date) -> String {
    UTCTimestamp.string(date) ?? "unknown"
  }
}

extension TravelMode {
  init(_ wire: WireTravelMode) {
    switch wire {
    case .driving: self = .driving
    case .walking: self = .walking
    }
  }
}

extension WireTravelMode {
  init(_ mode: TravelMode) {
    switch mode {
    case .driving: self = .driving
    case .walking: self = .walking
    }
  }
}
