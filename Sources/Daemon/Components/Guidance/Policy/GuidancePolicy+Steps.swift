import ControlProtocol
import DashPilotCore
import FoundationEssentials
import Guidance
import PlatformSupport

// The drive along the followed route: what the session's engine events and reroute actions
// become (events, lines to speak, provider calls), on each fix, each reroute answer and
// each tick.
extension GuidancePolicy {
  /// The tick: a due reroute retry starts here.
  mutating func tick(now: ClockReading) -> [GuidanceAction] {
    guard let step = drive?.session.tick(now: now.rerouteTime) else { return [] }
    return perform(step, now: now, eventsFirst: false)
  }

  /// The provider's answer to reroute `id`, asked while the followed route was `generation`.
  mutating func rerouteAnswered(
    _ result: Result<PlannedRoute, RouteFailure>, for id: RerouteRequestID, generation: Int, now: ClockReading
  ) -> [GuidanceAction] {
    guard generation == self.generation, let current = drive else {
      return [.log(.info, "dropped the answer to \(id): its route is no longer followed")]
    }
    var checked = result
    if case .success(let planned) = result, let route = try? GuidanceRoute(planned.coordinates),
      let problem = NewRouteCheck(config: current.session.engine.config).problem(
        with: route, from: current.session.coordinator.latestFix)
    {
      checked = .failure(RouteFailure(.noRoute, "\(planned.provider): \(problem)"))
    }
    guard let step = drive?.session.answer(checked, for: id, now: now.rerouteTime) else { return [] }
    return perform(step, now: now, eventsFirst: false, answering: id)
  }

  /// A fix's engine events are told before what the coordinator does about them; an
  /// answer's or a tick's actions come before the events of a route they installed.
  mutating func perform(
    _ step: GuidanceSession.Step, now: ClockReading, eventsFirst: Bool, answering answered: RerouteRequestID? = nil
  ) -> [GuidanceAction] {
    var actions: [GuidanceAction] = []
    if eventsFirst { for event in step.events { actions += reported(event, now: now) } }
    for action in step.actions { actions += act(action, now: now, answering: answered) }
    if !eventsFirst { for event in step.events { actions += reported(event, now: now) } }
    return actions
  }

  /// An engine event's report, and, on arrival at a named destination, its name said.
  private mutating func reported(_ timed: TimedGuidanceEvent, now: ClockReading) -> [GuidanceAction] {
    let report = report(timed, now: now)
    guard case .arrived = timed.event, let name = drive?.destinationName else { return [report] }
    return [report] + spoken(Announcement(.arrived, subject: name), now: now)
  }

  /// A line said to the driver: its event, and the line to the speaker.
  func spoken(_ announcement: Announcement, now: ClockReading) -> [GuidanceAction] {
    let text = announcement.text(for: language)
    return [
      .announce(
        EventReport(
          .guidanceAnnouncement(.init(kind: announcement.kind.rawValue, language: language.rawValue, at: now.wall)),
          text, at: now.wall)),
      .speak(text),
    ]
  }

  private mutating func report(_ timed: TimedGuidanceEvent, now: ClockReading) -> GuidanceAction {
    let moment = DaemonEvent.FixMoment(fixTime: timed.timestamp, at: now.wall)
    let event: DaemonEvent
    var priority = LogPriority.notice
    switch timed.event {
    case .joined:
      event = .guidanceJoined(moment)
    case .offRoute(let lateral):
      drive?.departedAt = now.monotonic
      event = .guidanceOffRoute(
        .init(
          fixTime: timed.timestamp, at: now.wall,
          lateralMetres: lateral.isFinite ? GuidanceWording.rounded(lateral) : nil
        ))
    case .backOnRoute:
      event = .guidanceBackOnRoute(moment)
    case .progress(let along, let remaining):
      event = .guidanceProgress(
        .init(
          fixTime: timed.timestamp, at: now.wall, alongMetres: GuidanceWording.rounded(along),
          remainingMetres: GuidanceWording.rounded(remaining)))
      priority = .info
    case .arrived:
      event = .guidanceArrived(moment)
    }
    return .announce(EventReport(event, GuidanceWording.engineEvent(timed.event), priority: priority, at: now.wall))
  }

  private mutating func act(_ action: RerouteAction, now: ClockReading, answering answered: RerouteRequestID?)
    -> [GuidanceAction]
  {
    switch action {
    case .announce(let announcement):
      return spoken(announcement, now: now)
    case .requestRoute(let id, let request):
      drive?.requestStarted[id] = now.monotonic
      drive?.lastReroute = nil
      return [
        .announce(
          EventReport(
            .guidanceRerouteRequested(
              .init(route: DaemonEvent.RouteAsked(request), request: id.description, at: now.wall)),
            GuidanceWording.rerouteRequested(of: providerName, request, id: id), at: now.wall)),
        .reroute(id, request, generation: generation),
      ]
    case .cancelled(let id):
      drive?.lastReroute = "cancelled: the car came back to the route"
      return [
        .announce(
          EventReport(
            .guidanceRerouteCancelled(.init(request: id.description, at: now.wall)),
            "\(id) is no longer needed: back on the route; its answer will be discarded", at: now.wall))
      ]
    case .discarded(let id):
      return [
        .announce(
          EventReport(
            .guidanceRerouteDiscarded(.init(request: id.description, at: now.wall)),
            "discarded the late answer to \(id)", priority: .info, at: now.wall))
      ]
    case .installRoute(let route, _):
      let started = answered.flatMap { drive?.requestStarted[$0] }
      let rerouted = DaemonEvent.Rerouted(
        points: route.points.count, lengthMetres: GuidanceWording.rounded(route.length),
        firstBearing: GuidanceWording.rounded(NewRouteCheck.initialBearing(of: route, over: 50)),
        start: WireCoordinate(route.start), at: now.wall, request: started == nil ? nil : answered?.description,
        latencyMilliseconds: started.map { Self.milliseconds(from: $0, to: now) },
        sinceOffRouteMilliseconds: drive?.departedAt.map { Self.milliseconds(from: $0, to: now) })
      drive?.lastReroute = "new route installed: \(GuidanceWording.metres(route.length))"
      return [.announce(EventReport(.guidanceRerouted(rerouted), GuidanceWording.rerouted(route), at: now.wall))]
    case .retryScheduled(let due, let failure):
      let retryAt = now.wallTime(ofRerouteTime: due)
      drive?.lastReroute =
        "\(failure.kind.rawValue): \(failure.detail); asking again at \(UTCTimestamp.string(retryAt) ?? "unknown")"
      let wait = Int(due.timeIntervalSince(now.rerouteTime).rounded())
      return [
        .announce(
          EventReport(
            .guidanceRerouteFailed(
              .init(
                failure: failure.kind.rawValue, detail: failure.detail, permanent: false, retryAt: retryAt,
                at: now.wall)),
            "no new route (\(failure.detail)); asking again in \(wait) s", priority: .warning, at: now.wall))
      ]
    case .gaveUp(let failure):
      drive?.lastReroute = "gave up: \(failure.kind.rawValue): \(failure.detail)"
      return [
        .announce(
          EventReport(
            .guidanceRerouteFailed(
              .init(failure: failure.kind.rawValue, detail: failure.detail, permanent: true, retryAt: nil, at: now.wall)
            ),
            "no new route (\(failure.detail)); waiting cannot fix this, so no more are asked for", priority: .warning,
            at: now.wall))
      ]
    }
  }
}
