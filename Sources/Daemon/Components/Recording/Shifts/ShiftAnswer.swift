import ControlProtocol
import DashPilotCore
import FoundationEssentials
import Guidance
import Store

/// What `shift show` and `report` answer about one shift, from one reading of its rows and
/// one walk of them: the figure, its counts and gaps with causes, and for a report the
/// stretches simplified for drawing and the moments the car left a given route.
struct ShiftAnswer {
  let stored: StoredShift
  let samples: [RouteSample]
  let measured: MeasuredRoute

  init(_ store: SampleStore, id: Int64) throws(StoreError) {
    guard let stored = try store.shift(id: id) else { throw .shiftNotFound(id) }
    self.stored = stored
    samples = try store.samples(ofShift: id)
    measured = stored.shift.measuredRoute(of: samples, calculator: stored.calculator)
  }

  /// The stops are read with `policy` and the shift's own continuity, a running shift's up
  /// to `now`, the receiver's time when it was asked; each is named by the place in
  /// `places` it lies in.
  func detail(
    _ figure: ShiftFigure, store: SampleStore, stops policy: StopPolicy, places: [Place], now: Date
  ) throws(StoreError) -> ShiftDetail {
    let (stops, time) = stopsAndTime(policy, now: now)
    return ShiftDetail(
      shift: figure.summary(of: stored, distance: measured.distance),
      qualifyingSentences: figure.quality(measured.distance).qualifyingSentences,
      captureSessions: Set(samples.compactMap(\.captureSessionID)).count,
      gaps: try ShiftGaps.wire(measured, store: store), stops: stops.map { WireStop($0, place: $0.place(in: places)) },
      time: WireShiftTime(time, minimumStop: policy.minimumStop), jobs: try jobs(store))
  }

  /// The jobs done in the shift, as the ledger told them.
  func jobs(_ store: SampleStore) throws(StoreError) -> [WireJob] {
    try store.read { (transaction) throws(StoreError) in try JobLedger().done(inShift: stored.id, in: transaction) }
      .map(WireJob.init)
  }

  /// The stops and the day's time from the same rows as the figure. A completed shift's
  /// are read with its window (the walk that made the figure); a running one's time runs
  /// to `now`, and the stop it may stand in is `ongoing` rather than cut by a window it
  /// does not have yet.
  func stopsAndTime(_ policy: StopPolicy, now: Date) -> (stops: [Stop], time: ShiftTime) {
    var policy = policy
    policy.calculator = stored.calculator
    if let window = stored.shift.window {
      let stops = policy.stops(in: measured, window: window)
      return (stops, ShiftTime(window: window, route: measured, stops: stops))
    }
    let shift = stored.shift
    let window = DateInterval(start: shift.startedAt, end: max(now, shift.startedAt))
    let route = policy.calculator.measure(samples, covering: window)
    let stops = policy.stops(in: route, now: now)
    return (stops, ShiftTime(window: window, route: route, stops: stops))
  }

  /// The export: each stretch of the walk that made the figure as a segment (a gap is never
  /// joined), and the stops `detail` lists.
  func export(_ figure: ShiftFigure, stops policy: StopPolicy, places: [Place], now: Date) -> ExportResult {
    let segments = measured.stretches.map { stretch in
      stretch.samples.map {
        WireTrackPoint(
          lat: $0.coordinate.latitude, lon: $0.coordinate.longitude, time: $0.timestamp.timeIntervalSince1970,
          accuracy: $0.horizontalAccuracy)
      }
    }
    return ExportResult(
      shift: figure.summary(of: stored, distance: measured.distance), segments: segments,
      stops: stopsAndTime(policy, now: now).stops.map { WireStop($0, place: $0.place(in: places)) })
  }

  /// The report: `detail`, each stretch simplified to a tolerance of the shift's extent
  /// over `ReportResult.drawingResolution`, with a route the confirmed departures, and the
  /// places around what is drawn (`ReportPlaces`).
  func report(
    _ figure: ShiftFigure, store: SampleStore, route: GuidanceRoute?, mode: TravelMode, stops policy: StopPolicy,
    places: [Place], now: Date
  ) throws(StoreError) -> ReportResult {
    let (stretches, tolerance) = ReportResult.drawing(measured.stretches, reference: samples.first?.coordinate)
    return ReportResult(
      detail: try detail(figure, store: store, stops: policy, places: places, now: now), stretches: stretches,
      toleranceMetres: tolerance, offRoute: route.map { departures(from: $0, mode: mode) },
      places: ReportPlaces.touching(
        measured.stretches.flatMap { $0.samples.map(\.coordinate) } + (route?.points ?? []), of: places))
  }

  /// Guidance's own engine fed the shift's positions in time order, as it was fed fixes:
  /// each `offRoute` it confirms is a departure. The recorded positions are those capture
  /// kept, so this judges what was recorded, not every fix the receiver gave.
  func departures(from route: GuidanceRoute, mode: TravelMode) -> [WireOffRoute] {
    var engine = GuidanceEngine(route: route, config: .preset(for: mode))
    var result: [WireOffRoute] = []
    for sample in measured.stretches.lazy.flatMap(\.samples) {
      let fix = GuidanceFix(
        timestamp: sample.timestamp, coordinate: sample.coordinate, accuracy: sample.horizontalAccuracy,
        speed: sample.speed, course: sample.course)
      for case .offRoute(let lateral) in engine.update(fix) {
        result.append(
          WireOffRoute(
            time: sample.timestamp, lat: sample.coordinate.latitude, lon: sample.coordinate.longitude,
            lateralMetres: lateral.isFinite ? lateral : nil))
      }
    }
    return result
  }
}
