import DashPilotCore
import Foundation
import Testing

/// A shift's kept and held rows on a street due north: `t` in seconds from 09:00:00Z,
/// `north` and `east` in metres from where the street begins.
struct StopRows {
  static let epoch = Date(timeIntervalSince1970: 1_772_442_000)  // 2026-03-02T09:00:00Z
  static let metresPerDegree = 6_371_008.8 * Double.pi / 180
  static let latitude = 53.8
  var session: CaptureSessionID? = CaptureSessionID("s1")
  var rows: [RouteSample] = []

  static func time(_ t: Double) -> Date { epoch.addingTimeInterval(t) }

  static func place(north: Double, east: Double = 0) -> GeoCoordinate {
    GeoCoordinate(
      latitude: latitude + north / metresPerDegree,
      longitude: -1.5 + east / (metresPerDegree * cos(latitude * .pi / 180)))
  }

  /// A kept move at 10 m/s (or a held sample, or a row reported at `speed`) at `t`.
  mutating func row(_ t: Double, north: Double, east: Double = 0, held: Bool = false, speed: Double? = nil) {
    rows.append(
      RouteSample(
        timestamp: Self.time(t), coordinate: Self.place(north: north, east: east), horizontalAccuracy: 8,
        speed: speed ?? (held ? 0.2 : 10), captureSessionID: session, isHeld: held))
  }

  /// Kept moves once a second from `from` (inclusive) to `to` (inclusive), at 10 m/s north
  /// from `north`; returns where the last one is.
  @discardableResult
  mutating func drive(from: Double, to: Double, north: Double) -> Double {
    for t in stride(from: from, through: to, by: 1) { row(t, north: north + (t - from) * 10) }
    return north + (to - from) * 10
  }

  /// Held samples a minute apart from `from` while before `until`, at `north` (each `wander`
  /// metres east of it, alternately).
  mutating func hold(from: Double, until: Double, north: Double, wander: Double = 0) {
    var east = wander
    for t in stride(from: from, to: until, by: 60) {
      row(t, north: north, east: east, held: true)
      east = -east
    }
  }
}

/// The stop policy reads stops out of the rows the figure comes from: the arrival is the last
/// kept move before held samples, the departure the first kept move after them, and a time
/// without fixes is never a stop.
@Suite struct StopPolicyTests {
  func t(_ date: Date) -> Double { date.timeIntervalSince(StopRows.epoch) }

  /// Each stop as "ARRIVAL-DEPARTURE start/end", in seconds from 09:00.
  func summary(_ stops: [Stop]) -> [String] {
    stops.map { "\(Int(t($0.arrival)))-\(Int(t($0.departure))) \($0.start.name)/\($0.end.name)" }
  }

  /// Driving 0-20 s, standing from 20 s (held at 80, 140, 200), away at 230 s.
  func deliveryDrop() -> StopRows {
    var rows = StopRows()
    let north = rows.drive(from: 0, to: 20, north: 0)
    rows.hold(from: 80, until: 230, north: north, wander: 3)
    rows.drive(from: 230, to: 240, north: north + 6)
    return rows
  }

  @Test("a stop seen whole: from the last move before the held samples to the first move after")
  func wholeStop() throws {
    let stops = StopPolicy().stops(in: deliveryDrop().rows)
    #expect(summary(stops) == ["20-230 arrived/departed"])
    let stop = try #require(stops.first)
    #expect(stop.duration == 210)
    #expect(stop.positions == 4)
    #expect(stop.isWhole && !stop.isCutByShiftEnd)
    // Where it stood: the median of the three held samples (3 m east, 3 m west, 3 m east).
    #expect(GeographicDistance.metres(from: stop.position, to: StopRows.place(north: 200, east: 3)) < 0.01)
    #expect(abs(stop.wander - 6) < 0.01)
  }

  @Test("a red light of 90 s is no stop; the same halt is one when the minimum is a minute")
  func redLight() {
    var rows = StopRows()
    let north = rows.drive(from: 0, to: 10, north: 0)
    rows.hold(from: 70, until: 100, north: north)
    rows.drive(from: 100, to: 110, north: north + 6)
    #expect(StopPolicy().stops(in: rows.rows).isEmpty)
    #expect(summary(StopPolicy(minimumStop: 60).stops(in: rows.rows)) == ["10-100 arrived/departed"])
  }

  @Test("exactly the minimum is a stop, a second less is not")
  func minimumIsInclusive() {
    for (departure, expected) in [(130.0, ["10-130 arrived/departed"]), (129.0, [])] {
      var rows = StopRows()
      let north = rows.drive(from: 0, to: 10, north: 0)
      rows.hold(from: 70, until: departure, north: north)
      rows.drive(from: departure, to: departure + 5, north: north + 6)
      #expect(summary(StopPolicy().stops(in: rows.rows)) == expected)
    }
  }

  @Test("a halt with no held sample is no stop, whatever the minimum: capture saw no standing")
  func noHeldSampleNoStop() {
    var rows = StopRows()
    let north = rows.drive(from: 0, to: 10, north: 0)
    rows.drive(from: 60, to: 70, north: north + 6)
    #expect(StopPolicy(minimumStop: 0).stops(in: rows.rows).isEmpty)
  }

  @Test("standing through a capture gap: the gap is not a stop, the standing either side of it is")
  func gapSplitsAStop() throws {
    var rows = StopRows()
    let north = rows.drive(from: 0, to: 10, north: 0)
    rows.hold(from: 70, until: 200, north: north)  // 70, 130, 190
    rows.session = CaptureSessionID("s2")  // the receiver unplugged 190-600
    rows.row(600, north: north, speed: 0)
    rows.hold(from: 660, until: 800, north: north)  // 660, 720, 780
    rows.drive(from: 800, to: 810, north: north + 6)
    let route = RouteMileageCalculator().measure(rows.rows)
    let gap = try #require(route.gaps.first)
    #expect(route.gaps.count == 1 && t(gap.from) == 190 && t(gap.to) == 600)
    let stops = StopPolicy().stops(in: rows.rows)
    #expect(summary(stops) == ["10-190 arrived/before_gap", "600-800 after_gap/departed"])
    #expect(stops.map(\.end) == [.beforeGap(gap), .departed])
    #expect(stops.map(\.start) == [.arrived, .afterGap(gap)])
    // The standing before the gap is shorter than the minimum once the gap comes sooner.
    var short = StopRows()
    let there = short.drive(from: 0, to: 10, north: 0)
    short.hold(from: 70, until: 100, north: there)
    short.session = CaptureSessionID("s2")
    short.row(600, north: there, speed: 0)
    short.hold(from: 660, until: 800, north: there)
    short.drive(from: 800, to: 810, north: there + 6)
    #expect(summary(StopPolicy().stops(in: short.rows)) == ["600-800 after_gap/departed"])
  }

  @Test("standing with no fixes kept for longer than the continuity limit is a gap, never a stop")
  func silenceIsAGap() {
    var rows = StopRows()
    let north = rows.drive(from: 0, to: 10, north: 0)
    // Under a bridge: nothing for 300 s, then the first fix there again, and away.
    rows.row(310, north: north, held: true)
    rows.drive(from: 330, to: 340, north: north + 6)
    #expect(RouteMileageCalculator().measure(rows.rows).gaps.map { $0.kind } == [.noFixes])
    #expect(StopPolicy(minimumStop: 0).stops(in: rows.rows).map(\.duration) == [20])
    #expect(StopPolicy().stops(in: rows.rows).isEmpty)
  }

  @Test("a shift started while standing: the stop begins with the shift, within the continuity limit")
  func shiftStartedStanding() {
    var rows = StopRows()
    rows.row(30, north: 0, speed: 0)
    rows.hold(from: 90, until: 200, north: 0)
    rows.drive(from: 200, to: 210, north: 6)
    let window = DateInterval(start: StopRows.time(0), end: StopRows.time(210))
    #expect(summary(StopPolicy().stops(in: rows.rows, window: window)) == ["0-200 shift_started/departed"])
    // Without the shift's window (a log), the stop begins with the first row.
    #expect(summary(StopPolicy().stops(in: rows.rows)) == ["30-200 recording_began/departed"])
    // A shift that began more than the limit before its first row has a gap there first.
    let late = DateInterval(start: StopRows.time(-200), end: StopRows.time(210))
    #expect(summary(StopPolicy().stops(in: rows.rows, window: late)) == ["30-200 after_gap/departed"])
  }

  @Test("a stop cut by the shift's end says so and lasts until the end; past the limit it is cut by a gap")
  func cutByTheShiftsEnd() throws {
    var rows = StopRows()
    let north = rows.drive(from: 0, to: 10, north: 0)
    rows.hold(from: 70, until: 200, north: north)  // 70, 130, 190
    let ended = DateInterval(start: StopRows.time(0), end: StopRows.time(250))
    let stops = StopPolicy().stops(in: rows.rows, window: ended)
    #expect(summary(stops) == ["10-250 arrived/shift_ended"])
    #expect(try #require(stops.first).isCutByShiftEnd)
    let late = DateInterval(start: StopRows.time(0), end: StopRows.time(400))
    #expect(summary(StopPolicy().stops(in: rows.rows, window: late)) == ["10-190 arrived/before_gap"])
    #expect(summary(StopPolicy().stops(in: rows.rows)) == ["10-190 arrived/recording_ended"])
  }

  @Test("a running shift standing now: the stop goes on until now, while now is within the limit")
  func standingNow() {
    var rows = StopRows()
    let north = rows.drive(from: 0, to: 10, north: 0)
    rows.hold(from: 70, until: 140, north: north)  // 70, 130
    #expect(summary(StopPolicy().stops(in: rows.rows, now: StopRows.time(200))) == ["10-200 arrived/ongoing"])
    #expect(summary(StopPolicy().stops(in: rows.rows, now: StopRows.time(300))) == ["10-130 arrived/recording_ended"])
    // Standing since the last move, before the first held sample: a stop once long enough.
    var fresh = StopRows()
    fresh.drive(from: 0, to: 10, north: 0)
    #expect(StopPolicy().stops(in: fresh.rows, now: StopRows.time(125)).isEmpty)
    #expect(
      summary(StopPolicy(minimumStop: 60).stops(in: fresh.rows, now: StopRows.time(125))) == ["10-125 arrived/ongoing"])
  }

  @Test("moves that stay within 25 m between held samples are the same stop; a move further is a departure")
  func shufflingWithinAStop() {
    var rows = StopRows()
    let north = rows.drive(from: 0, to: 10, north: 0)
    rows.hold(from: 70, until: 200, north: north)  // 70, 130, 190
    rows.row(195, north: north + 12)  // re-parked 12 m on
    rows.row(200, north: north + 14)
    rows.hold(from: 260, until: 400, north: north + 14)  // 260, 320, 380
    rows.drive(from: 400, to: 410, north: north + 20)
    #expect(summary(StopPolicy().stops(in: rows.rows)) == ["10-400 arrived/departed"])
    var moved = StopRows()
    let there = moved.drive(from: 0, to: 10, north: 0)
    moved.hold(from: 70, until: 200, north: there)
    moved.row(195, north: there + 30)
    moved.row(200, north: there + 40)
    moved.hold(from: 260, until: 400, north: there + 40)
    moved.drive(from: 400, to: 410, north: there + 46)
    // The first move lies 30 m on: at 10 m/s the vehicle left 3 s before it was seen there.
    #expect(summary(StopPolicy().stops(in: moved.rows)) == ["10-192 arrived/departed", "200-400 arrived/departed"])
  }

  @Test("a cold start: the first fix 110 m off is where capture began, not where the van stood")
  func coldStart() throws {
    var rows = StopRows()
    rows.row(0, north: -92, east: -60, speed: 0)  // a session's first fix is kept wherever it is
    rows.hold(from: 60, until: 300, north: 0, wander: 4)
    rows.drive(from: 300, to: 310, north: 8)
    let stop = try #require(StopPolicy().stops(in: rows.rows).first)
    #expect(summary([stop]) == ["0-300 recording_began/departed"])
    // Four held samples, 4 m east and west in turn: the median is between them.
    #expect(GeographicDistance.metres(from: stop.position, to: StopRows.place(north: 0)) < 0.01)
    // The wander is the rows': the first fix lies 111 m from where it stood.
    #expect(
      abs(stop.wander - GeographicDistance.metres(from: StopRows.place(north: -92, east: -60), to: stop.position))
        < 0.01)
  }

  @Test("the rows in any order give the same stops: the calculator's order is the policy's")
  func orderDoesNotMatter() {
    let rows = deliveryDrop().rows
    #expect(StopPolicy().stops(in: rows.reversed()) == StopPolicy().stops(in: rows))
    #expect(StopPolicy().stops(in: rows.shuffled()) == StopPolicy().stops(in: rows))
  }

  @Test("two stops in a day, a red light between them: oldest first, the light not among them")
  func aDay() {
    var rows = StopRows()
    var north = rows.drive(from: 0, to: 10, north: 0)
    rows.hold(from: 70, until: 400, north: north)  // a 390 s drop
    north = rows.drive(from: 400, to: 430, north: north + 6)
    rows.hold(from: 490, until: 505, north: north)  // a 75 s light
    north = rows.drive(from: 505, to: 530, north: north + 6)
    rows.hold(from: 590, until: 700, north: north)
    rows.drive(from: 700, to: 710, north: north + 6)
    #expect(summary(StopPolicy().stops(in: rows.rows)) == ["10-400 arrived/departed", "530-700 arrived/departed"])
  }

  @Test("no rows, one row, only moves: no stops")
  func nothingToStandIn() {
    #expect(StopPolicy().stops(in: [RouteSample]()).isEmpty)
    var one = StopRows()
    one.row(0, north: 0)
    #expect(StopPolicy().stops(in: one.rows).isEmpty)
    var moving = StopRows()
    moving.drive(from: 0, to: 600, north: 0)
    #expect(
      StopPolicy().stops(in: moving.rows, window: DateInterval(start: StopRows.time(0), end: StopRows.time(600)))
        .isEmpty)
  }

  @Test("a kept move the receiver reports under 2 m/s stood; the last faster move before it is the arrival")
  func slowMovesStood() {
    var rows = StopRows()
    let north = rows.drive(from: 0, to: 10, north: 0)
    rows.row(12, north: north + 1, speed: 1.2)  // the last metre of braking
    rows.row(40, north: north + 7, speed: 0)  // the receiver's wander, kept as a move
    rows.hold(from: 100, until: 200, north: north + 2)
    rows.drive(from: 200, to: 210, north: north + 8)
    #expect(summary(StopPolicy().stops(in: rows.rows)) == ["10-200 arrived/departed"])
  }

  @Test("capture lost the approach: the last move 70 m back is carried on by its own speed")
  func unseenApproach() throws {
    var rows = StopRows()
    let north = rows.drive(from: 0, to: 10, north: 0)  // at 10 m/s
    rows.row(47, north: north + 70, speed: 0)  // the first fix kept there
    rows.hold(from: 107, until: 300, north: north + 70)
    rows.drive(from: 300, to: 310, north: north + 76)
    let stop = try #require(StopPolicy().stops(in: rows.rows).first)
    #expect(summary([stop]) == ["17-300 arrived/departed"])
  }

  @Test("a held sample far from the one before (capture kept none of the drive between) is another stop")
  func heldFarAwayIsElsewhere() {
    var rows = StopRows()
    let north = rows.drive(from: 0, to: 10, north: 0)
    rows.hold(from: 70, until: 200, north: north)  // 70, 130, 190
    rows.hold(from: 250, until: 400, north: north + 170)  // 250, 310, 370
    rows.drive(from: 400, to: 410, north: north + 176)
    // Each stop ends, or begins, at its own last or first row: they never overlap.
    #expect(summary(StopPolicy().stops(in: rows.rows)) == ["10-190 arrived/departed", "250-400 arrived/departed"])
  }
}
