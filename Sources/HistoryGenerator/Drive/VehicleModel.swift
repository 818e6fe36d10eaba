import DashPilotCore

/// A delivery van's day at the level a GPS receiver sees it: legs of driving at city,
/// arterial and highway speeds with turns and curves, red lights, delivery stops of a few
/// minutes, one longer break, all around a depot it never strays far from. It moves the
/// true position; what capture keeps of it is `ShiftSimulation`'s business.
struct VehicleModel {
  enum Phase: Equatable {
    case driving
    /// Slowing to a standstill, then standing this long.
    case braking(thenStand: Double)
    case standing(left: Double)
  }

  private(set) var position: GeoCoordinate
  /// Degrees from true north.
  private(set) var heading: Double
  /// Metres per second.
  private(set) var speed: Double = 0
  private(set) var phase: Phase = .driving
  let depot: GeoCoordinate
  /// Seconds into the shift at which a stop becomes the day's break.
  let breakAfter: Double
  private var hadBreak = false
  private var elapsed: Double = 0
  private var targetSpeed: Double = 10
  private var roadChangeIn: Double = 0
  private var turnIn: Double
  private var turnRate: Double = 0
  private var turnLeft: Double = 0
  private var redLightIn: Double
  private var legLeft: Double

  /// Further than this from the depot, every turn turns towards it.
  static let homeRadius: Double = 12_000
  static let acceleration: Double = 1.5
  static let braking: Double = 2.5

  init(depot: GeoCoordinate, shiftSeconds: Double, random: inout HistoryRandom) {
    self.depot = depot
    position = depot
    heading = random.uniform(0...359.9)
    breakAfter = shiftSeconds * random.uniform(0.4...0.6)
    turnIn = random.uniform(20...90)
    redLightIn = random.uniform(120...360)
    legLeft = random.uniform(900...2_400)
  }

  var isMoving: Bool { speed >= 0.5 }

  /// Moves the van on by `dt` seconds.
  mutating func advance(_ dt: Double, random: inout HistoryRandom) {
    elapsed += dt
    switch phase {
    case .driving:
      drive(dt, random: &random)
    case .braking(let stand):
      speed = max(0, speed - Self.braking * dt)
      if speed == 0 { phase = .standing(left: stand) }
    case .standing(let left):
      if left - dt > 0 {
        phase = .standing(left: left - dt)
      } else {
        phase = .driving
        roadChangeIn = 0
      }
    }
    if speed > 0 {
      position = GeographicDistance.destination(from: position, bearing: heading, distance: speed * dt)
    }
  }

  private mutating func drive(_ dt: Double, random: inout HistoryRandom) {
    roadChangeIn -= dt
    if roadChangeIn <= 0 {
      // 55 % city streets, 35 % arterial roads, 10 % highway.
      let road = random.unit()
      targetSpeed =
        road < 0.55 ? random.uniform(8...14) : road < 0.9 ? random.uniform(14...20) : random.uniform(22...29)
      roadChangeIn = random.uniform(40...180)
    }
    turnIn -= dt
    if turnLeft <= 0 && turnIn <= 0 { startTurn(random: &random) }
    var limit = targetSpeed
    if turnLeft > 0 {
      heading = GeographicDistance.normalizedDegrees(heading + turnRate * dt)
      turnLeft -= dt
      if abs(turnRate) > 12 { limit = min(limit, 8) }
    } else {
      heading = GeographicDistance.normalizedDegrees(heading + random.uniform(-0.6...0.6) * dt)
    }
    speed =
      speed < limit
      ? min(limit, speed + Self.acceleration * dt) : max(limit, speed - Self.braking * dt)

    redLightIn -= dt
    legLeft -= dt
    if legLeft <= 0 {
      let stand: Double
      if !hadBreak && elapsed >= breakAfter {
        hadBreak = true
        stand = random.uniform(1_500...2_100)
      } else {
        stand = random.chance(0.85) ? random.uniform(60...300) : random.uniform(360...900)
      }
      phase = .braking(thenStand: stand)
      legLeft = random.uniform(900...2_400)
      redLightIn = random.uniform(120...360)
    } else if redLightIn <= 0 {
      phase = .braking(thenStand: random.uniform(10...60))
      redLightIn = random.uniform(120...360)
    }
  }

  /// A corner (a quarter turn, two in three) or a curve, towards the depot when far from it.
  private mutating func startTurn(random: inout HistoryRandom) {
    let angle = random.chance(0.65) ? 90 : random.uniform(15...45)
    var sign = random.sign()
    if GeographicDistance.metres(from: position, to: depot) > Self.homeRadius {
      let home = GeographicDistance.initialBearing(from: position, to: depot)
      let offset = GeographicDistance.normalizedDegrees(home - heading)
      sign = offset <= 180 ? 1 : -1
    }
    let duration = 3 + angle / 30
    turnRate = sign * angle / duration
    turnLeft = duration
    turnIn = random.uniform(25...120)
  }
}
