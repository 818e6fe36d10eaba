import DashPilotCore
import FoundationEssentials
import GPSD
import Guidance

/// The route a replay follows, already read and checked by the caller (`dashpilotctl` reads
/// the file; Capture takes only coordinates, so it never links an XML parser).
public struct ReplayRoute: Sendable, Hashable {
  public var route: GuidanceRoute
  public var mode: TravelMode

  public init(route: GuidanceRoute, mode: TravelMode) {
    self.route = route
    self.mode = mode
  }
}

/// What guidance said over a replay: its mode, where it stood at the end, and the events
/// that change a driver's situation (progress is left out: it is a status line, not news).
public struct ReplayGuidanceOutcome: Sendable, Hashable {
  public var mode: TravelMode
  public var phase: GuidancePhase
  /// `joined`, `offRoute`, `backOnRoute` and `arrived`, each at the time of its fix.
  public var events: [TimedGuidanceEvent]

  public init(mode: TravelMode, phase: GuidancePhase, events: [TimedGuidanceEvent]) {
    self.mode = mode
    self.phase = phase
    self.events = events
  }
}

/// Guidance over a replayed log: the daemon's `GuidanceSession` (engine and reroute
/// coordinator) fed every TPV with a position and a time, in log order, whether or not
/// capture kept it, with the fix's own time as "now".
///
/// Replay has no routing provider: the coordinator's requests for a new route are never
/// answered, so no new route is installed and the engine keeps judging against the route
/// loaded, exactly as a box whose provider never answers would. A car that comes back to it
/// is reported back on route.
struct ReplayGuidance {
  private var session: GuidanceSession
  private let mode: TravelMode
  private var events: [TimedGuidanceEvent] = []

  init(_ route: ReplayRoute) {
    mode = route.mode
    session = GuidanceSession(route: route.route, mode: route.mode, providerName: "none (replay)")
  }

  mutating func observe(_ tpv: GPSDTPV) {
    guard let fix = GuidanceFix(tpv) else { return }
    let step = session.update(fix, now: fix.timestamp)
    events += step.events.filter {
      if case .progress = $0.event { return false }
      return true
    }
  }

  var outcome: ReplayGuidanceOutcome {
    ReplayGuidanceOutcome(mode: mode, phase: session.phase, events: events)
  }
}
