import DashPilotCore
import Foundation
import Store
import TestSupport

/// A completed shift with every kind of gap, written to a real database through the store
/// as capture writes one: four capture sessions ending as capture ends them (a receiver
/// removed, gpsd's connection lost, the daemon stopping), a silence within a session, and
/// the shift's own uncovered start and end. The car moves during every gap, so each gap has
/// a length on the drawing. Times are 2023-11-14, 08:00 to 09:00 UTC.
struct GappedShiftFixture {
  static let shiftStart = Date(timeIntervalSince1970: 1_699_948_800)  // 2023-11-14T08:00:00Z
  static let shiftEnd = shiftStart + 3600

  /// One stretch: its session, when it starts (seconds after 08:00), how long it drives at
  /// 10 m/s with a position every 5 s, and where it heads.
  struct Stretch {
    var session: String
    var start: TimeInterval
    var seconds: TimeInterval
    var bearing: Double
  }

  static let stretches = [
    Stretch(session: "s1", start: 300, seconds: 600, bearing: 90),  // 08:05–08:15 east
    Stretch(session: "s2", start: 1320, seconds: 480, bearing: 0),  // 08:22–08:30 north
    Stretch(session: "s2", start: 1980, seconds: 420, bearing: 90),  // 08:33–08:40 east, after a silence
    Stretch(session: "s3", start: 2640, seconds: 360, bearing: 180),  // 08:44–08:50 south
    Stretch(session: "s4", start: 3120, seconds: 180, bearing: 270),  // 08:52–08:55 west
  ]
  /// How each session ended, as capture stores it (code, receiver), and when.
  static let endings: [String: (code: String, device: String?, at: TimeInterval)] = [
    "s1": ("device_deactivated", "/dev/ttyACM0", 900),
    "s2": ("connection_lost", nil, 2400),
    "s3": ("capture_stopped", nil, 3000),
    "s4": ("capture_stopped", nil, 3300),
  ]
  /// Where the car went while nothing was captured, after each stretch but the last.
  static let unseenMoves: [(metres: Double, bearing: Double)] = [(800, 45), (1000, 45), (600, 90), (500, 200)]

  /// 6,000 + 4,800 + 4,200 + 3,600 + 1,800 m: 12.7 mi.
  static let recordedMetres = 20_400.0

  static let gapLines = [
    "gap 08:00–08:05 (5 min): shift started before capture",
    "gap 08:15–08:22 (7 min): receiver /dev/ttyACM0 removed",
    "gap 08:30–08:33 (3 min): no fixes",
    "gap 08:40–08:44 (4 min): gpsd connection lost",
    "gap 08:50–08:52 (2 min): daemon stopped",
    "gap 08:55–09:00 (5 min): capture stopped before the shift ended",
  ]

  /// Every position, stretch by stretch.
  let positions: [[RouteSample]]

  init(start: GeoCoordinate = GeoCoordinate(latitude: 51.5, longitude: -0.12)) {
    var position = start
    var positions: [[RouteSample]] = []
    for (index, stretch) in Self.stretches.enumerated() {
      var route = RouteBuilder(
        start: position, time: Self.shiftStart + stretch.start, session: CaptureSessionID(stretch.session))
      for _ in 0..<Int(stretch.seconds / 5) { route.drive(50, bearing: stretch.bearing, seconds: 5) }
      positions.append(route.samples)
      position = route.position
      if index < Self.unseenMoves.count {
        let move = Self.unseenMoves[index]
        position = GeographicDistance.destination(from: position, bearing: move.bearing, distance: move.metres)
      }
    }
    self.positions = positions
  }

  /// Writes the shift (id 1) into a new database at `path`, session by session.
  func write(to path: String) throws {
    let store = try SampleStore(path: path)
    let shift = try store.startShift(at: Self.shiftStart)
    var begun: Set<String> = []
    for (index, stretch) in Self.stretches.enumerated() {
      let session = CaptureSessionID(stretch.session)
      if begun.insert(stretch.session).inserted {
        try store.beginCaptureSession(session, at: Self.shiftStart + stretch.start, shiftID: shift.id)
      }
      try store.append(positions[index], toShift: shift.id)
      let isLastOfSession = index == Self.stretches.count - 1 || Self.stretches[index + 1].session != stretch.session
      if isLastOfSession, let ending = Self.endings[stretch.session] {
        try store.endCaptureSession(
          session, at: Self.shiftStart + ending.at, reason: ending.code, device: ending.device, shiftID: shift.id)
      }
    }
    _ = try store.endShift(shift.id, at: Self.shiftEnd)
  }
}
