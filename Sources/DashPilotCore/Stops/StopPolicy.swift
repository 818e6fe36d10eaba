import FoundationEssentials

/// Where and for how long a shift's vehicle stood still with the receiver reporting, read
/// from the rows the figure is measured from (kept moves and held samples). Pure: the time
/// of a running shift is passed in; nothing is stored.
///
/// - The rows are walked by the calculator (`RouteMileageCalculator.measure`), so a stop
///   lies inside one unbroken stretch of capture and never spans a gap: a time without
///   fixes is the gap it already is, with its cause, however still the vehicle was.
/// - Capture judged each fix once (`RouteSampleFilter`): a held sample, or a kept move the
///   receiver reports slower than capture's stationary speed, stood. A run of such rows
///   where the vehicle stood (each `isAt` the run's median), with a held sample among them
///   (capture saw a minute's standing), is where it stopped.
/// - A stop spans the standing: it begins at the last kept move before the run (the
///   arrival) and ends at the first kept move after it (the departure). Kept moves between
///   two runs that stay where the vehicle stood are the vehicle shuffling within the stop
///   (or the receiver's wander judged a move): one stop, not two.
/// - A stop lasts at least `minimumStop`; a red light or a queue is shorter.
/// - At the ends of a stretch a stop may be cut: by the shift's start or end, by a gap, by
///   the end of the rows, or by `now` while the vehicle stands (see `Stop.Start`, `Stop.End`).
public struct StopPolicy: Sendable {
  /// Two minutes: longer than a red light or a queue at one (90 s at most on the roads the
  /// delivery day is checked against), shorter than any delivery.
  public static let defaultMinimumStop: TimeInterval = 120
  /// A parked receiver with a good error estimate records within 25 m of where it stands
  /// whatever it does (cold start, wander, multipath: what capture keeps of them), so a row
  /// this close stood there.
  public static let defaultSameStopRadius: Double = 25

  public var minimumStop: TimeInterval
  public var sameStopRadius: Double
  /// A kept move reported slower than this (m/s) stood: capture's own threshold
  /// (`RouteSampleFilterConfiguration.stationarySpeed`), below which a receiver's speed is
  /// noise.
  public var standingSpeed: Double
  /// ... and a row lies where the vehicle stood when it is within `sameStopRadius` of it,
  /// or within this multiple of its own error estimate, whichever is further: capture's
  /// own hold (`RouteSampleFilterConfiguration.stationaryErrorFraction`), since a receiver
  /// that claims 80 m wanders by more than 25 m while parked.
  public var standingErrorFraction: Double
  /// The continuity the figure is measured with: a stop never spans what it calls a gap.
  public var calculator: RouteMileageCalculator

  public init(
    minimumStop: TimeInterval = defaultMinimumStop, sameStopRadius: Double = defaultSameStopRadius,
    standingSpeed: Double = RouteSampleFilterConfiguration().stationarySpeed,
    standingErrorFraction: Double = RouteSampleFilterConfiguration().stationaryErrorFraction,
    calculator: RouteMileageCalculator = RouteMileageCalculator()
  ) {
    self.minimumStop = minimumStop
    self.sameStopRadius = sameStopRadius
    self.standingSpeed = standingSpeed
    self.standingErrorFraction = standingErrorFraction
    self.calculator = calculator
  }

  /// The stops in `rows` (one shift's, in any order), oldest first. `window` is the shift's
  /// window once it has ended; `now` the time a running shift is read at, for the stop it
  /// may be standing in (ignored with a window).
  public func stops<C: Collection>(in rows: C, window: DateInterval? = nil, now: Date? = nil) -> [Stop]
  where C.Element == RouteSample {
    stops(in: calculator.measure(rows, covering: window), window: window, now: now)
  }

  /// The stops of a route already measured with `window` (by this policy's calculator).
  public func stops(in route: MeasuredRoute, window: DateInterval? = nil, now: Date? = nil) -> [Stop] {
    let between = route.gapsBetweenStretches
    let windowStart = route.gaps.first.flatMap { $0.kind == .beforeCapture ? $0 : nil }
    let windowEnd = route.gaps.last.flatMap { $0.kind == .afterCapture ? $0 : nil }
    var found: [Stop] = []
    for (index, stretch) in route.stretches.enumerated() {
      let isFirst = index == 0
      let isLast = index == route.stretches.count - 1
      let before: StretchEdge
      if !isFirst {
        before = .gap(between[index - 1])
      } else if let window {
        before = windowStart.map(StretchEdge.gap) ?? .shift(window.start)
      } else {
        before = .recording
      }
      let after: StretchEdge
      if !isLast {
        after = .gap(between[index])
      } else if let window {
        after = windowEnd.map(StretchEdge.gap) ?? .shift(window.end)
      } else if let now, let last = stretch.to, now.timeIntervalSince(last) <= calculator.maximumSampleInterval {
        after = .now(max(now, last))
      } else {
        after = .recording
      }
      for run in standingRuns(in: stretch.samples, trailingIsOpen: after.isOpen) {
        let stop = makeStop(run, of: stretch.samples, before: before, after: after)
        if stop.duration >= minimumStop { found.append(stop) }
      }
    }
    return found
  }

  /// What lies beyond one end of a stretch.
  enum StretchEdge {
    /// The shift's own start or end, within the continuity limit of the stretch.
    case shift(Date)
    case gap(RouteGap)
    /// The moment a running shift was read at, within the continuity limit.
    case now(Date)
    /// Nothing: the rows begin or end here.
    case recording

    /// Whether the vehicle may still have been standing beyond it, on time that counts as
    /// captured (the shift's end, or now).
    var isOpen: Bool {
      switch self {
      case .shift, .now: true
      case .gap, .recording: false
      }
    }
  }

  /// One run of rows the vehicle stood through: `rows` are the standing rows (indexes into
  /// the stretch), `centre` their median.
  struct Run {
    var rows: [Int]
    var centre: GeoCoordinate
    var hasHeld: Bool
    var first: Int { rows[0] }
    var last: Int { rows[rows.count - 1] }
  }

  /// Whether `sample` lies where the vehicle stood, at `centre`.
  func isAt(_ centre: GeoCoordinate, _ sample: RouteSample) -> Bool {
    GeographicDistance.metres(from: centre, to: sample.coordinate)
      <= max(sameStopRadius, standingErrorFraction * sample.horizontalAccuracy)
  }

  /// Whether capture's judgement or the receiver's own speed says the vehicle stood at
  /// `sample`: a held sample, or a kept move reported slower than `standingSpeed`.
  public func isStanding(_ sample: RouteSample) -> Bool {
    sample.isHeld || (sample.speed.map { $0 < standingSpeed } ?? false)
  }

  /// The runs of standing rows in one stretch, each where the vehicle stood (`isAt` its
  /// median); runs with only kept moves between them that stay there are one. A run
  /// counts only with a held sample in it (capture saw standing), except the stretch's
  /// last row when the stretch is open after it (the vehicle may be standing there now).
  /// The stretch's first row, kept wherever it is (a session's anchor: a cold start's first
  /// fix may sit 100 m off), joins the run after it when it stood, wherever it lies.
  func standingRuns(in samples: [RouteSample], trailingIsOpen: Bool) -> [Run] {
    var runs: [Run] = []
    var current: Run?
    for index in samples.indices {
      let sample = samples[index]
      let standing = isStanding(sample)
      if var run = current, standing,
        run.rows == [0] || isAt(run.centre, sample)
      {
        run.rows.append(index)
        run.hasHeld = run.hasHeld || sample.isHeld
        // The anchor's position does not move where the vehicle stood.
        run.centre = Self.median(run.rows.filter { $0 > 0 || run.rows.count == 1 }.map { samples[$0].coordinate })
        current = run
        continue
      }
      if let run = current { runs.append(run) }
      current = standing ? Run(rows: [index], centre: sample.coordinate, hasHeld: sample.isHeld) : nil
    }
    if let run = current { runs.append(run) }
    if trailingIsOpen, let lastIndex = samples.indices.last, runs.last?.last != lastIndex {
      runs.append(Run(rows: [lastIndex], centre: samples[lastIndex].coordinate, hasHeld: false))
    }
    var merged: [Run] = []
    for run in runs {
      if var previous = merged.last, movesStayed(samples, after: previous, before: run) {
        previous.rows += Array(previous.last + 1...run.last)
        previous.hasHeld = previous.hasHeld || run.hasHeld
        previous.centre = Self.median(previous.rows.filter { $0 > 0 }.map { samples[$0].coordinate })
        merged[merged.count - 1] = previous
      } else {
        merged.append(run)
      }
    }
    return merged.filter { $0.hasHeld || (trailingIsOpen && $0.last == samples.count - 1) }
  }

  /// Whether every row between `previous` and `next`, and `next` itself, lies where the
  /// vehicle stood in `previous`.
  private func movesStayed(_ samples: [RouteSample], after previous: Run, before next: Run) -> Bool {
    (previous.last + 1...next.first).allSatisfy { isAt(previous.centre, samples[$0]) }
  }

  private func makeStop(_ run: Run, of samples: [RouteSample], before: StretchEdge, after: StretchEdge) -> Stop {
    let wander = run.rows.map { GeographicDistance.metres(from: run.centre, to: samples[$0].coordinate) }.max() ?? 0
    let firstRow = samples[run.first].timestamp
    let lastRow = samples[run.last].timestamp
    // A run that begins with a move (a running shift's last row, the vehicle standing since)
    // arrived at that move; any other was seen arriving at the row before it, if any.
    let arrivedAtFirst = !isStanding(samples[run.first])
    let start: Stop.Start
    let arrival: Date
    switch (arrivedAtFirst || run.first > 0, before) {
    case (true, _):
      let seenArriving =
        arrivedAtFirst ? firstRow : seen(samples[run.first - 1], run.centre, after: true, own: firstRow)
      (start, arrival) = (.arrived, min(firstRow, seenArriving))
    case (false, .shift(let began)): (start, arrival) = (.shiftStarted, min(began, firstRow))
    case (false, .gap(let gap)): (start, arrival) = (.afterGap(gap), firstRow)
    case (false, .now), (false, .recording): (start, arrival) = (.recordingBegan, firstRow)
    }
    let end: Stop.End
    let departure: Date
    switch (run.last < samples.count - 1, after) {
    case (true, _):
      (end, departure) = (.departed, max(lastRow, seen(samples[run.last + 1], run.centre, after: false, own: lastRow)))
    case (false, .shift(let ended)): (end, departure) = (.shiftEnded, max(ended, lastRow))
    case (false, .gap(let gap)): (end, departure) = (.beforeGap(gap), lastRow)
    case (false, .now(let now)): (end, departure) = (.ongoing, max(now, lastRow))
    case (false, .recording): (end, departure) = (.recordingEnded, lastRow)
    }
    return Stop(
      arrival: arrival, departure: departure, start: start, end: end, position: run.centre, wander: wander,
      positions: run.rows.count + (run.first > 0 && !arrivedAtFirst ? 1 : 0))
  }

  /// When the vehicle was where it stood, judged from the row next to the stop: that row's
  /// time (the last moment seen moving before, the first after), so that a stop spans the
  /// standing. A move kept away from the stop (not `isAt` it: capture did not keep
  /// the approach or the getaway) is carried towards it by the time its own speed takes to
  /// cover the distance, `after` the move for an arrival. A row that stood elsewhere (capture
  /// kept nothing of the drive between) says only that the vehicle was not here: the stop's
  /// own row, `own`, is the edge, so that two stops never overlap.
  private func seen(_ row: RouteSample, _ centre: GeoCoordinate, after: Bool, own: Date) -> Date {
    if isStanding(row) { return own }
    guard let speed = row.speed, speed >= standingSpeed, !isAt(centre, row) else { return row.timestamp }
    let distance = GeographicDistance.metres(from: row.coordinate, to: centre)
    return row.timestamp.addingTimeInterval(after ? distance / speed : -distance / speed)
  }

  /// The median latitude and the median longitude: one stray position does not move it.
  static func median(_ positions: [GeoCoordinate]) -> GeoCoordinate {
    func middle(_ values: [Double]) -> Double {
      let sorted = values.sorted()
      let half = sorted.count / 2
      return sorted.count % 2 == 1 ? sorted[half] : (sorted[half - 1] + sorted[half]) / 2
    }
    return GeoCoordinate(latitude: middle(positions.map(\.latitude)), longitude: middle(positions.map(\.longitude)))
  }
}
