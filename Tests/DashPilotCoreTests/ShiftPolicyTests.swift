import DashPilotCore
import Foundation
import Testing

/// A vehicle on a line due north, told to the policy one kept sample at a time: `t` in
/// seconds from 08:00:00Z, `north` in metres from where it parked.
private struct Day {
  static let epoch = Date(timeIntervalSince1970: 1_714_550_400)  // 2024-05-01T08:00:00Z
  static let metresPerDegree = 6_371_008.8 * Double.pi / 180
  var policy = ShiftPolicy()
  var session = CaptureSessionID("s1")

  init(_ policy: ShiftPolicy = ShiftPolicy()) { self.policy = policy }

  static func time(_ t: Double) -> Date { epoch.addingTimeInterval(t) }

  func sample(_ t: Double, north: Double, held: Bool = false) -> RouteSample {
    RouteSample(
      timestamp: Self.time(t),
      coordinate: GeoCoordinate(latitude: 51.5 + north / Self.metresPerDegree, longitude: -0.12),
      horizontalAccuracy: 5, speed: held ? 0 : 10, captureSessionID: session, isHeld: held)
  }

  mutating func kept(_ t: Double, north: Double, held: Bool = false) -> [ShiftDecision] {
    policy.kept(sample(t, north: north, held: held))
  }

  /// Moves from `from` at `speed` m/s, one kept sample a second, for `seconds`; returns
  /// every decision.
  mutating func drive(from t: Double, at north: Double, seconds: Int, speed: Double = 10) -> [ShiftDecision] {
    (0..<seconds).flatMap { kept(t + Double($0), north: north + speed * Double($0)) }
  }

  /// Held samples every minute from `from` to `until` (exclusive), at `north`.
  mutating func stand(from t: Double, until end: Double, at north: Double) -> [ShiftDecision] {
    stride(from: t, to: end, by: 60).flatMap { kept($0, north: north, held: true) }
  }

  /// A new capture session (a restart, gpsd back, the receiver plugged in again).
  mutating func newSession(_ name: String) {
    policy.captureSessionEnded()
    session = CaptureSessionID(name)
  }

  var isOpen: Bool {
    if case .open = policy.phase { return true }
    return false
  }
}

/// The decisions' kinds and times, for exact comparison: "start 100 (21 samples)",
/// "keep 130", "end 0 stopped".
private func summary(_ decisions: [ShiftDecision]) -> [String] {
  decisions.map { decision in
    func t(_ date: Date) -> String { String(Int(date.timeIntervalSince(Day.epoch))) }
    switch decision {
    case let .start(at, samples, _): return "start \(t(at)) (\(samples.count) samples)"
    case let .keep(samples): return "keep " + samples.map { t($0.timestamp) }.joined(separator: ",")
    case let .end(at, cause): return "end \(t(at)) \(cause.rawValue)"
    }
  }
}

@Suite("ShiftPolicy: when a shift starts")
struct ShiftPolicyStartTests {
  @Test("a drive from where it parked starts the shift at its first move, 200 m out, with every move since")
  func driveStarts() throws {
    var day = Day()
    #expect(day.kept(0, north: 0) == [])  // the session's first fix: where it stands
    #expect(day.stand(from: 60, until: 600, at: 1) == [])
    // Moves from t=600, 10 m a second from 5 m north: 205 m at t=620.
    let decisions = day.drive(from: 600, at: 5, seconds: 20)
    #expect(decisions == [])
    let start = day.kept(620, north: 205)
    #expect(summary(start) == ["start 600 (21 samples)"])
    guard case let .start(_, samples, displacement) = start.first else { return }
    #expect(samples.map(\.timestamp) == (600...620).map { Day.time(Double($0)) })
    #expect(abs(displacement - 204) < 1e-6)  // from the last held sample, 1 m north
    #expect(
      day.policy.status == .init(startedBy: .movement, stoppedSince: nil, endsAfterStop: 2700, waitingForFix: false))
    #expect(summary(day.kept(621, north: 215)) == ["keep 621"])
  }

  @Test("creeping at walking pace starts it too: a displacement, whatever the speed")
  func creeping() {
    var day = Day()
    _ = day.kept(0, north: 0)
    // 1.2 m/s, a move kept every 5 s (6 m): 200 m after 170 s.
    let decisions = stride(from: 5.0, through: 170, by: 5).flatMap { day.kept($0, north: 1.2 * $0) }
    #expect(summary(decisions) == ["start 5 (34 samples)"])
  }

  @Test(
    "stop-and-go in traffic, standing minutes away from where it parked, keeps the movement: it starts at the first move"
  )
  func stopAndGo() {
    var day = Day()
    _ = day.kept(0, north: 0)
    var decisions = day.drive(from: 100, at: 10, seconds: 8, speed: 10)  // to 80 m
    decisions += day.stand(from: 168, until: 400, at: 80)  // held three times, 80 m out
    decisions += day.drive(from: 400, at: 90, seconds: 8, speed: 10)  // to 160 m
    decisions += day.stand(from: 468, until: 700, at: 160)
    #expect(decisions == [])
    // 8 moves, 4 held, 8 moves, 4 held, and the fourth move of the last leg is 200 m out.
    #expect(summary(day.drive(from: 700, at: 170, seconds: 4)) == ["start 100 (28 samples)"])
  }

  @Test(
    "a parked receiver's wander, kept as a move now and then, never starts one; the departure does, from its own first move"
  )
  func parkedWander() {
    var day = Day()
    _ = day.kept(0, north: 0)
    var decisions: [ShiftDecision] = []
    for minute in 1..<300 {
      let t = Double(minute * 60)
      // Every tenth minute a kept wander move of up to 20 m, then a held sample back near.
      if minute % 10 == 0 { decisions += day.kept(t - 30, north: Double(minute % 3) * 10 - 10) }
      decisions += day.kept(t, north: Double(minute % 5) - 2, held: true)
    }
    #expect(decisions == [])
    #expect(summary(day.drive(from: 18_005, at: 5, seconds: 21)) == ["start 18005 (21 samples)"])
  }

  @Test("a movement that stands away from where it stood for the limit is over: the next one starts from there")
  func movementPetersOut() {
    var day = Day()
    _ = day.kept(0, north: 0)
    var decisions = day.drive(from: 10, at: 10, seconds: 10)  // to 100 m, stands there
    // The held sample of t=2780, 2761 s after the last move, is where it stands now.
    decisions += day.stand(from: 80, until: 3000, at: 100)
    decisions += day.drive(from: 3000, at: 110, seconds: 15)  // 250 m from where it parked, 150 m from the stand
    #expect(decisions == [])
    #expect(summary(day.drive(from: 3015, at: 260, seconds: 5)) == ["start 3000 (20 samples)"])
  }

  @Test("a session's first fix far away is no move: a box switched on elsewhere starts nothing until it moves")
  func newSessionElsewhere() {
    var day = Day()
    _ = day.kept(0, north: 0)
    day.newSession("s2")
    #expect(day.kept(3600, north: 5000) == [])
    #expect(day.kept(3660, north: 5001, held: true) == [])
    #expect(summary(day.drive(from: 3700, at: 5011, seconds: 21)) == ["start 3700 (21 samples)"])
  }

  @Test("the samples waiting for a start are bounded: the oldest moves go")
  func pendingLimit() {
    var configuration = ShiftPolicyConfiguration()
    configuration.pendingLimit = 10
    var day = Day(ShiftPolicy(configuration: configuration))
    _ = day.kept(0, north: 0)
    // Circling 100 m out, then away.
    var decisions = (1...30).flatMap { day.kept(Double($0), north: 100 + Double($0 % 2)) }
    decisions += day.kept(31, north: 200)
    #expect(summary(decisions) == ["start 22 (10 samples)"])
  }
}

@Suite("ShiftPolicy: when a shift ends")
struct ShiftPolicyEndTests {
  /// A shift started on movement at t=600, the last move kept at t=700 at 1005 m.
  fileprivate static func driving() -> Day {
    var day = Day()
    _ = day.kept(0, north: 0)
    _ = day.drive(from: 600, at: 5, seconds: 101)
    return day
  }

  @Test("a delivery stop shorter than the limit stays in the shift: its held samples are written when it moves again")
  func shortStop() {
    var day = Self.driving()
    #expect(day.stand(from: 760, until: 2000, at: 1005) == [])
    #expect(day.policy.status?.stoppedSince == Day.time(700))
    #expect(day.policy.timePassed(receiverTime: Day.time(700 + 2699)) == [])
    #expect(summary([day.kept(2005, north: 1015)].flatMap { $0 }).first?.hasPrefix("keep 760,820,") == true)
    #expect(day.policy.status?.stoppedSince == nil)
  }

  @Test("standing still for the limit, the receiver reporting: ends stopped at its last moving fix")
  func stopped() {
    var day = Self.driving()
    #expect(day.stand(from: 760, until: 3400, at: 1005) == [])
    // The held sample of t=3400 is 2700 s after the last move.
    #expect(summary(day.kept(3400, north: 1005, held: true)) == ["end 700 stopped"])
    #expect(!day.isOpen)
  }

  @Test("the tick ends it at the limit exactly, by the receiver's time")
  func stoppedOnTheTick() {
    var day = Self.driving()
    _ = day.stand(from: 760, until: 1000, at: 1005)
    #expect(day.policy.timePassed(receiverTime: Day.time(3399.999)) == [])
    #expect(summary(day.policy.timePassed(receiverTime: Day.time(3400))) == ["end 700 stopped"])
    // The standing after the last move stays out of the shift; the next drive starts a new one from there.
    #expect(summary(day.drive(from: 4000, at: 1015, seconds: 20)) == ["start 4000 (20 samples)"])
  }

  @Test("a power cut shorter than the limit keeps the shift: the new session's samples go on in it")
  func shortPowerCut() {
    var day = Self.driving()
    day.newSession("s2")
    #expect(day.policy.timePassed(receiverTime: Day.time(1300)) == [])
    #expect(day.kept(1300, north: 1005) == [])  // the new session's first fix: no move
    #expect(summary(day.kept(1301, north: 1015)) == ["keep 1300,1301"])
  }

  @Test(
    "no fix for the limit (box off): the next fix ends it, capture_lost, at its last kept fix; the next drive opens another"
  )
  func longPowerCut() {
    var day = Self.driving()
    day.newSession("s2")
    #expect(summary(day.kept(700 + 3 * 3600, north: 1005)) == ["end 700 capture_lost"])
    #expect(!day.isOpen)
    #expect(summary(day.drive(from: 11_501, at: 1015, seconds: 20)) == ["start 11501 (20 samples)"])
  }

  @Test("standing, then the box off: no move for the limit with capture interrupted is capture_lost")
  func standThenPowerCut() {
    var day = Self.driving()
    _ = day.stand(from: 760, until: 1900, at: 1005)
    day.newSession("s2")
    #expect(summary(day.kept(3500, north: 1005)) == ["end 700 capture_lost"])
  }

  @Test("the receiver gone quiet (session ended) for the limit: the tick says capture_lost")
  func receiverGoneOnTheTick() {
    var day = Self.driving()
    day.policy.captureSessionEnded()
    #expect(summary(day.policy.timePassed(receiverTime: Day.time(3400))) == ["end 700 capture_lost"])
  }

  @Test(
    "after a restart the shift waits for a fix: one 20 minutes later keeps it, one 3 hours later ends it at its last row"
  )
  func restart() {
    let lastRow = Day().sample(700, north: 1005)
    var day = Day(ShiftPolicy(resuming: .movement, lastRow: lastRow))
    #expect(
      day.policy.status
        == .init(startedBy: .movement, stoppedSince: Day.time(700), endsAfterStop: 2700, waitingForFix: true))
    day.session = CaptureSessionID("s2")
    #expect(day.kept(1900, north: 1005) == [])
    #expect(day.policy.status?.waitingForFix == false)
    #expect(summary(day.kept(1901, north: 1015)) == ["keep 1900,1901"])

    var late = Day(ShiftPolicy(resuming: .movement, lastRow: lastRow))
    late.session = CaptureSessionID("s3")
    #expect(summary(late.kept(700 + 3 * 3600, north: 1005)) == ["end 700 capture_lost"])
  }

  @Test("before that fix, a synchronised wall clock may decide: from the limit, up to a day past the last row")
  func synchronisedWallClock() {
    let lastRow = Day().sample(700, north: 1005)
    var day = Day(ShiftPolicy(resuming: .movement, lastRow: lastRow))
    #expect(day.policy.timePassed(synchronisedWallClock: Day.time(3399)) == [])
    #expect(summary(day.policy.timePassed(synchronisedWallClock: Day.time(3400))) == ["end 700 capture_lost"])

    var foreign = Day(ShiftPolicy(resuming: .movement, lastRow: lastRow))
    #expect(foreign.policy.timePassed(synchronisedWallClock: Day.time(700 + 86_401)) == [])
    #expect(foreign.isOpen)
    // Once a fix has come, the wall clock no longer decides: the receiver's time does.
    foreign.session = CaptureSessionID("s2")
    _ = foreign.kept(1000, north: 1005)
    #expect(foreign.policy.timePassed(synchronisedWallClock: Day.time(3400)) == [])
  }

  @Test("the end of a replayed log ends an open shift at its last move")
  func endOfLog() {
    var day = Self.driving()
    _ = day.stand(from: 760, until: 1000, at: 1005)
    #expect(summary(day.policy.logEnded()) == ["end 700 end_of_log"])
  }
}

@Suite("ShiftPolicy: by hand")
struct ShiftPolicyManualTests {
  @Test("a shift started by hand holds every kept sample at once and never ends by itself")
  func startedByHand() {
    var day = Day()
    _ = day.kept(0, north: 0)
    day.policy.startedByHand()
    #expect(summary(day.kept(60, north: 1, held: true)) == ["keep 60"])
    #expect(day.policy.timePassed(receiverTime: Day.time(100_000)) == [])
    day.newSession("s2")
    #expect(summary(day.kept(90_000, north: 5)) == ["keep 90000"])
    #expect(day.policy.status == .init(startedBy: .manual, stoppedSince: nil, endsAfterStop: nil, waitingForFix: false))
    #expect(day.policy.endedByHand(at: Day.time(90_001)) == [])
  }

  @Test("a shift started on movement and ended by hand hands back its standing, to be written before it ends")
  func automaticEndedByHand() {
    var day = ShiftPolicyEndTests.driving()
    _ = day.stand(from: 760, until: 1000, at: 1005)
    #expect(day.policy.endedByHand(at: Day.time(1000)).map(\.timestamp) == [760, 820, 880, 940].map { Day.time($0) })
  }

  @Test("after a shift ended by hand the drive home starts nothing; after standing for the limit, the next drive does")
  func quietAfterAManualEnd() {
    var day = ShiftPolicyEndTests.driving()
    #expect(day.policy.endedByHand(at: Day.time(701)) == [])
    #expect(day.drive(from: 702, at: 1010, seconds: 600) == [])  // 6 km home
    // Stands from the last move at 1301; the held sample of t=4060 is past the limit.
    #expect(day.stand(from: 1360, until: 4120, at: 7000) == [])
    #expect(summary(day.drive(from: 4120, at: 7010, seconds: 20)) == ["start 4120 (20 samples)"])
    var early = ShiftPolicyEndTests.driving()
    _ = early.policy.endedByHand(at: Day.time(701))
    _ = early.stand(from: 760, until: 3000, at: 1005)
    #expect(early.drive(from: 3000, at: 1015, seconds: 30) == [])  // 2299 s after the end: still quiet
  }
}

@Suite struct DurationTextTests {
  @Test(arguments: [
    ("45min", 2700.0), ("90", 90), ("90s", 90), ("1h", 3600), ("1.5h", 5400), ("0", 0), ("2.5min", 150),
  ])
  func parses(text: String, seconds: Double) {
    #expect(DurationText.seconds(text) == seconds)
  }

  @Test(arguments: ["", "min", "45 min", "-5", "5m", "1e3", "1.5.h", ".5h", "5.", "45mins", "ninety"])
  func refuses(text: String) {
    #expect(DurationText.seconds(text) == nil)
  }

  @Test func spoken() {
    #expect(
      [40, 60, 720, 2700, 3600, 5400, 7260].map { DurationText.spoken(Double($0)) }
        == ["40 s", "1 min", "12 min", "45 min", "1 h", "1 h 30 min", "2 h 1 min"])
  }
}
