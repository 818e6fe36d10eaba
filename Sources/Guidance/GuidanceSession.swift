import DashPilotCore
import FoundationEssentials

/// One drive's guidance: the engine and the reroute coordinator wired together, so the daemon
/// and the offline replay run the same sequence. Installing a new route happens here (a fresh
/// engine fed the latest fix at once, its events handed straight back to the coordinator);
/// everything else is returned for the caller to do: speak, call the provider, log.
public struct GuidanceSession: Sendable {
  /// What one input produced: engine events with the time of their fix, and the actions.
  public struct Step: Sendable, Hashable {
    public var events: [TimedGuidanceEvent] = []
    public var actions: [RerouteAction] = []

    public init(events: [TimedGuidanceEvent] = [], actions: [RerouteAction] = []) {
      self.events = events
      self.actions = actions
    }
  }

  public private(set) var engine: GuidanceEngine
  public private(set) var coordinator: RerouteCoordinator

  /// `destination` defaults to the route's end (a route loaded from a file).
  public init(
    route: GuidanceRoute, mode: TravelMode, providerName: String,
    config: GuidanceConfig? = nil, destination: GeoCoordinate? = nil
  ) {
    let config = config ?? .preset(for: mode)
    engine = GuidanceEngine(route: route, config: config)
    coordinator = RerouteCoordinator(
      mode: mode, providerName: providerName, destination: destination ?? route.end,
      config: config)
  }

  public var phase: GuidancePhase { engine.phase }
  public var nextDeadline: Date? { coordinator.nextDeadline }

  public mutating func update(_ fix: GuidanceFix, now: Date) -> Step {
    let events = engine.update(fix)
    var step = Step(events: events.map { TimedGuidanceEvent($0, at: fix.timestamp) })
    perform(coordinator.handle(events, after: fix, now: now), now: now, into: &step)
    return step
  }

  public mutating func answer(
    _ result: Result<PlannedRoute, RouteFailure>, for id: RerouteRequestID, now: Date
  ) -> Step {
    var step = Step()
    perform(coordinator.answer(result, for: id, now: now), now: now, into: &step)
    return step
  }

  public mutating func tick(now: Date) -> Step {
    var step = Step()
    perform(coordinator.tick(now: now), now: now, into: &step)
    return step
  }

  private mutating func perform(_ actions: [RerouteAction], now: Date, into step: inout Step) {
    for action in actions {
      step.actions.append(action)
      guard case .installRoute(let route, let fix) = action else { continue }
      let started = GuidanceEngine.starting(on: route, config: engine.config, with: fix)
      engine = started.engine
      guard let fix else { continue }
      step.events += started.events.map { TimedGuidanceEvent($0, at: fix.timestamp) }
      perform(coordinator.handle(started.events, after: fix, now: now), now: now, into: &step)
    }
  }
}
