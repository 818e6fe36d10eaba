import Capture
import DashPilotCore
import FoundationEssentials
import PlatformSupport

/// `replay --stops`: the stops `StopPolicy` finds in a log's kept and held samples, and how
/// the recording's time divided, shown as a person reads them or as JSON. Times are UTC, as
/// the rest of a replay's.
struct ReplayStops: Sendable {
  var stops: [Stop]
  var policy: StopPolicy
  /// The places that name the stops (`--places`).
  var places: [Place]
  /// The span the time is divided over: `--window`, else the first to the last kept sample.
  var time: ShiftTime?

  init(result: ReplayResult, stops: [Stop], policy: StopPolicy, places: [Place] = [], window: DateInterval?) {
    self.stops = stops
    self.policy = policy
    self.places = places
    let span =
      window
      ?? result.samples.first.flatMap { first in
        result.samples.last.map { DateInterval(start: first.timestamp, end: max(first.timestamp, $0.timestamp)) }
      }
    time = span.map { span in
      let route = policy.calculator.measure(result.samples, covering: span)
      return ShiftTime(window: span, route: route, stops: stops)
    }
  }

  /// `--stops` and its `--minimum-stop`, a duration as `DurationText` reads one.
  static func policy(_ asked: Bool, minimumStop: String?, command: String) throws(UsageError) -> StopPolicy? {
    guard asked else {
      if minimumStop != nil { throw UsageError("--minimum-stop needs --stops", command: command) }
      return nil
    }
    guard let text = minimumStop else { return StopPolicy() }
    guard let seconds = DurationText.seconds(text) else {
      throw UsageError("--minimum-stop must be a duration such as 2min, 90s or 0.5h, not \"\(text)\"", command: command)
    }
    return StopPolicy(minimumStop: seconds)
  }

  /// "09:14:05": the UTC time of day.
  static func clock(_ date: Date) -> String {
    guard let text = UTCTimestamp.string(date) else { return "?" }
    let time = text.split(separator: "T").last ?? ""
    return String(time.prefix(8))
  }

  /// The lines a person reads: a heading, one line per stop, then the time.
  var text: [String] {
    var lines = ["Stops (UTC): \(StopWording.count(stops.count, minimumStop: policy.minimumStop))"]
    for (index, stop) in stops.enumerated() {
      let line = StopWording.line(
        number: index + 1, from: Self.clock(stop.arrival), to: Self.clock(stop.departure), stop: stop,
        place: stop.place(in: places)?.name)
      lines.append("  \(line), ±\(Int(stop.wander.rounded())) m around \(Self.position(stop.position))")
    }
    if let time {
      let wording = ShiftTimeWording(time: time, minimumStop: policy.minimumStop)
      lines.append("Time: \(wording.summary)")
      lines += wording.qualifyingSentences.map { "  \($0)" }
    }
    return lines
  }

  static func position(_ coordinate: GeoCoordinate) -> String {
    "\(FixedDecimal.text(coordinate.latitude, digits: 6) ?? "?"),\(FixedDecimal.text(coordinate.longitude, digits: 6) ?? "?")"
  }

  /// `"stops":[{"arrival","departure","duration_s","start","end","latitude","longitude",
  /// "wander_m","positions","place","spoken"}],"time":{"from","to","moving_s","stopped_s",
  /// "not_captured_s","summary","spoken"}` (`time` null for a log with no kept sample).
  var json: String {
    let items = stops.enumerated().map { index, stop in
      let place = stop.place(in: places)?.name
      return "{\"arrival\":\(Self.instant(stop.arrival)),\"departure\":\(Self.instant(stop.departure)),"
        + "\"duration_s\":\(JSONText.number(stop.duration, digits: 3)),"
        + "\"start\":\(JSONText.string(stop.start.name)),\"end\":\(JSONText.string(stop.end.name)),"
        + "\"latitude\":\(JSONText.number(stop.position.latitude, digits: 7)),"
        + "\"longitude\":\(JSONText.number(stop.position.longitude, digits: 7)),"
        + "\"wander_m\":\(JSONText.number(stop.wander, digits: 1)),\"positions\":\(stop.positions),"
        + "\"place\":\(place.map(JSONText.string) ?? "null"),"
        + "\"spoken\":\(JSONText.string(StopWording.spoken(number: index + 1, from: Self.clock(stop.arrival), stop: stop, place: place)))}"
    }
    var text = "\"stops\":[\(items.joined(separator: ","))],\"time\":"
    if let time {
      let wording = ShiftTimeWording(time: time, minimumStop: policy.minimumStop)
      text +=
        "{\"from\":\(Self.instant(time.window.start)),\"to\":\(Self.instant(time.window.end)),"
        + "\"moving_s\":\(JSONText.number(time.moving, digits: 3)),"
        + "\"stopped_s\":\(JSONText.number(time.stopped, digits: 3)),"
        + "\"not_captured_s\":\(JSONText.number(time.notCaptured, digits: 3)),"
        + "\"summary\":\(JSONText.string(wording.summary)),\"spoken\":\(JSONText.string(wording.spoken))}"
    } else {
      text += "null"
    }
    return text
  }

  static func instant(_ date: Date) -> String { UTCTimestamp.string(date).map(JSONText.string) ?? "null" }
}
