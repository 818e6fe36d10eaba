import DashPilotCore
import Foundation

/// What a consumer receiver reports of the van: its error radius (a few metres, worse for a
/// while now and then, as under tall buildings), its speed and course with a little noise,
/// and, standing, a position that wanders by a metre or two.
struct ReceiverModel {
  /// This receiver's usual error radius, metres.
  private let baseAccuracy: Double
  /// Ticks left of a poor stretch, and its error radius.
  private var poorTicksLeft = 0
  private var poorAccuracy: Double = 0

  init(random: inout HistoryRandom) {
    baseAccuracy = random.uniform(2.5...5)
  }

  mutating func movingFix(
    of van: VehicleModel, at time: Date, session: CaptureSessionID, random: inout HistoryRandom
  ) -> RouteSample {
    RouteSample(
      timestamp: time, coordinate: van.position, horizontalAccuracy: accuracy(random: &random),
      speed: max(0, van.speed + random.uniform(-0.15...0.15)),
      course: GeographicDistance.normalizedDegrees(van.heading + random.uniform(-1.5...1.5)),
      captureSessionID: session)
  }

  /// The held sample capture keeps while the van stands: no course, a speed near zero.
  mutating func heldFix(
    of van: VehicleModel, at time: Date, session: CaptureSessionID, random: inout HistoryRandom
  ) -> RouteSample {
    let wander = GeographicDistance.destination(
      from: van.position, bearing: random.uniform(0...359.9), distance: random.uniform(0...2))
    return RouteSample(
      timestamp: time, coordinate: wander, horizontalAccuracy: accuracy(random: &random) * 1.3,
      speed: random.uniform(0...0.15), course: nil, captureSessionID: session, isHeld: true)
  }

  private mutating func accuracy(random: inout HistoryRandom) -> Double {
    if poorTicksLeft > 0 {
      poorTicksLeft -= 1
      return poorAccuracy * random.uniform(0.85...1.15)
    }
    // About one poor stretch every half hour of fixes at 1 Hz.
    if random.chance(1.0 / 1_800) {
      poorTicksLeft = Int(random.uniform(10...60))
      poorAccuracy = random.uniform(12...35)
    }
    return baseAccuracy * random.uniform(0.8...1.5)
  }
}
