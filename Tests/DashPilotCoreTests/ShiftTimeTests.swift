import DashPilotCore
import Foundation
import Testing

/// A shift's time divides into moving, stopped with the receiver reporting, and not
/// captured; the three add up to its window, and the words claim only that.
@Suite struct ShiftTimeTests {
  func window(_ from: Double, _ to: Double) -> DateInterval {
    DateInterval(start: StopRows.time(from), end: StopRows.time(to))
  }

  @Test("a delivery drop and a gap: each part from the rows, the three adding up to the window")
  func partsAddUp() {
    var rows = StopRows()
    let north = rows.drive(from: 0, to: 10, north: 0)
    rows.hold(from: 70, until: 300, north: north)  // stopped 10-300
    var there = rows.drive(from: 300, to: 400, north: north + 6)
    rows.session = CaptureSessionID("s2")  // unplugged 400-700
    there = rows.drive(from: 700, to: 900, north: there + 50)
    let shift = Shift(id: 1, startedAt: StopRows.time(0), endedAt: StopRows.time(1000))
    let time = ShiftTime(shift: shift, rows: rows.rows, now: StopRows.time(5000))
    // The end: 100 s after the last row, within the continuity limit, so captured.
    #expect(time.window == window(0, 1000))
    #expect(time.stopped == 290)
    #expect(time.notCaptured == 300)
    #expect(time.moving == 410)
    #expect(time.moving + time.stopped + time.notCaptured == time.window.duration)
  }

  @Test("a running shift is divided up to now; past the continuity limit the rest is not captured")
  func runningShift() {
    var rows = StopRows()
    rows.drive(from: 0, to: 100, north: 0)
    let shift = Shift(id: 1, startedAt: StopRows.time(0))
    let soon = ShiftTime(shift: shift, rows: rows.rows, now: StopRows.time(160))
    #expect(soon.window == window(0, 160))
    #expect(soon.moving == 160 && soon.stopped == 0 && soon.notCaptured == 0)
    let later = ShiftTime(shift: shift, rows: rows.rows, now: StopRows.time(400))
    #expect(later.moving == 100 && later.notCaptured == 300)
  }

  @Test("a shift with no position is all not captured; parts never pass the window")
  func nothingCaptured() {
    let shift = Shift(id: 1, startedAt: StopRows.time(0), endedAt: StopRows.time(600))
    let empty = ShiftTime(shift: shift, rows: [RouteSample](), now: StopRows.time(600))
    #expect(empty.moving == 0 && empty.stopped == 0 && empty.notCaptured == 600)
    // A stop reaching past the window counts only inside it.
    let stop = Stop(
      arrival: StopRows.time(-100), departure: StopRows.time(200), start: .arrived, end: .departed,
      position: StopRows.place(north: 0), wander: 0, positions: 3)
    var rows = StopRows()
    rows.drive(from: 0, to: 600, north: 0)
    let route = RouteMileageCalculator().measure(rows.rows, covering: window(0, 600))
    let clipped = ShiftTime(window: window(0, 600), route: route, stops: [stop])
    #expect(clipped.stopped == 200 && clipped.moving == 400 && clipped.notCaptured == 0)
  }
}

/// The wording of a shift's time: rounded together, so that what is shown adds up.
@Suite struct ShiftTimeWordingTests {
  func time(moving: Double, stopped: Double, notCaptured: Double) -> ShiftTime {
    let start = StopRows.time(0)
    return ShiftTime(
      window: DateInterval(start: start, duration: moving + stopped + notCaptured), moving: moving,
      stopped: stopped, notCaptured: notCaptured)
  }

  @Test("hours and minutes, not captured last and only when some was")
  func summary() {
    let day = ShiftTimeWording(time: time(moving: 4 * 3600 + 12 * 60, stopped: 2 * 3600 + 180, notCaptured: 840))
    #expect(day.summary == "4 h 12 min moving · 2 h 3 min stopped · 14 min not captured")
    #expect(
      day.spoken
        == "4 hours 12 minutes moving, 2 hours 3 minutes stopped, and 14 minutes not captured. "
        + "Not captured is time with no positions recorded: where the vehicle was then is not known.")
    #expect(
      day.qualifyingSentences == [
        "Stopped is standing still for 2 min or more with the receiver reporting; shorter halts count as moving.",
        "Not captured is time with no positions recorded: where the vehicle was then is not known.",
      ])
    let whole = ShiftTimeWording(time: time(moving: 3600, stopped: 60 * 61, notCaptured: 0))
    #expect(whole.summary == "1 h moving · 1 h 1 min stopped")
    #expect(whole.spoken == "1 hour moving and 1 hour 1 minute stopped.")
    #expect(whole.qualifyingSentences.count == 1)
  }

  @Test("the shown minutes add up to the window's: largest remainders take the rounding")
  func roundedTogether() {
    // 20.5 + 20.5 + 20 minutes: each rounded alone would show 62 of a 61-minute window.
    let even = ShiftTimeWording(time: time(moving: 1230, stopped: 1230, notCaptured: 1200))
    #expect(even.rounded.moving == 21 && even.rounded.stopped == 20 && even.rounded.notCaptured == 20)
    #expect(even.summary == "21 min moving · 20 min stopped · 20 min not captured")
    for (moving, stopped, lost) in [(1234.0, 4321.0, 299.0), (59.0, 59.0, 59.0), (3599.4, 0.3, 0.3)] {
      let parts = ShiftTimeWording(time: time(moving: moving, stopped: stopped, notCaptured: lost)).rounded
      let window = Int(((moving + stopped + lost) / 60).rounded(.toNearestOrAwayFromZero))
      #expect(parts.moving + parts.stopped + parts.notCaptured == window)
    }
  }

  @Test("some time that rounds to none is under a minute, never nothing; a short window in seconds")
  func underAMinute() {
    let brief = ShiftTimeWording(time: time(moving: 1800, stopped: 600, notCaptured: 20))
    #expect(brief.summary == "30 min moving · 10 min stopped · under 1 min not captured")
    #expect(brief.spoken.hasPrefix("30 minutes moving, 10 minutes stopped, and less than a minute not captured."))
    let short = ShiftTimeWording(time: time(moving: 20, stopped: 0, notCaptured: 5))
    #expect(short.summary == "20 s moving · 0 s stopped · 5 s not captured")
  }

  @Test("the words claim no engine state, no percentage, nothing total")
  func claimsOnlyWhatIsKnown() {
    let cases = [
      time(moving: 4000, stopped: 3000, notCaptured: 500), time(moving: 0, stopped: 0, notCaptured: 600),
      time(moving: 100, stopped: 0, notCaptured: 0),
    ]
    for time in cases {
      let wording = ShiftTimeWording(time: time, minimumStop: 90)
      let everything = ([wording.summary, wording.spoken] + wording.qualifyingSentences).joined(separator: " ")
      for word in ["idl", "engine", "ignition", "%", "total", "complete", "parked"] {
        #expect(!everything.lowercased().contains(word), "\(word) in \(everything)")
      }
      #expect(wording.qualifyingSentences[0].contains("for 90 s or more"))
    }
  }
}

/// One stop's words: its line, what cut it, its spoken form.
@Suite struct StopWordingTests {
  func stop(_ seconds: Double, start: Stop.Start = .arrived, end: Stop.End = .departed) -> Stop {
    Stop(
      arrival: StopRows.time(0), departure: StopRows.time(seconds), start: start, end: end,
      position: StopRows.place(north: 0), wander: 6, positions: 5)
  }

  @Test("a whole stop: its times, its duration, its place")
  func wholeStop() {
    #expect(
      StopWording.line(number: 3, from: "10:02", to: "10:09", stop: stop(420), place: "Depot")
        == "stop 3 10:02–10:09 (7 min) at Depot")
    #expect(
      StopWording.line(number: 1, from: "10:02", to: "10:04", stop: stop(130), place: nil)
        == "stop 1 10:02–10:04 (2 min)")
    #expect(
      StopWording.spoken(number: 3, from: "10:02", stop: stop(4320), place: "Depot")
        == "Stop 3, at 10:02, 1 hour 12 minutes at Depot.")
    #expect(StopWording.cut(stop(420)) == nil)
  }

  @Test("a cut stop says what cut it, in the line and spoken")
  func cutStops() {
    let gap = RouteGap(kind: .noFixes, from: StopRows.time(0), to: StopRows.time(300))
    #expect(StopWording.cut(stop(600, end: .shiftEnded)) == "still stopped when the shift ended")
    #expect(StopWording.cut(stop(600, end: .ongoing)) == "stopped now")
    #expect(StopWording.cut(stop(600, end: .beforeGap(gap))) == "capture lost while stopped")
    #expect(StopWording.cut(stop(600, end: .recordingEnded)) == "still stopped when the recording ended")
    #expect(StopWording.cut(stop(600, start: .shiftStarted)) == "already stopped when the shift started")
    #expect(StopWording.cut(stop(600, start: .recordingBegan)) == "already stopped when the recording began")
    #expect(
      StopWording.cut(stop(600, start: .afterGap(gap), end: .shiftEnded))
        == "already stopped when capture resumed, still stopped when the shift ended")
    #expect(
      StopWording.line(number: 9, from: "16:40", to: "17:00", stop: stop(1200, end: .shiftEnded), place: "Depot")
        == "stop 9 16:40–17:00 (20 min) at Depot · still stopped when the shift ended")
    #expect(
      StopWording.spoken(number: 9, from: "16:40", stop: stop(1200, end: .shiftEnded), place: nil)
        == "Stop 9, at 16:40, 20 minutes. Still stopped when the shift ended.")
  }

  @Test("the count names the minimum; durations are spelled out when spoken")
  func countsAndDurations() {
    #expect(StopWording.count(0, minimumStop: 120) == "No stops of 2 min or more")
    #expect(StopWording.count(1, minimumStop: 120) == "1 stop of 2 min or more")
    #expect(StopWording.count(40, minimumStop: 90) == "40 stops of 90 s or more")
    #expect(StopWording.setting(90) == "90 s")
    #expect(StopWording.setting(5400) == "1 h 30 min")
    #expect(StopWording.setting(120) == "2 min")
    #expect(StopWording.spokenDuration(45) == "45 seconds")
    #expect(StopWording.spokenDuration(60) == "1 minute")
    #expect(StopWording.spokenDuration(7200) == "2 hours")
    #expect(StopWording.spokenDuration(3660) == "1 hour 1 minute")
  }
}
