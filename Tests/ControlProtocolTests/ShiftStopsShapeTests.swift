import ControlProtocol
import DashPilotCore
import Foundation
import Testing

/// `shift show`'s `stops` and `time`: one shape each, every member written (a stop whose
/// both ends were seen has a null `cut`), and read back by the client as written.
struct ShiftStopsShapeTests {
  static let arrival = Date(timeIntervalSince1970: 1_714_558_201)  // 2024-05-01T10:10:01Z

  static func stop(end: Stop.End, wander: Double = 10.04) -> Stop {
    Stop(
      arrival: arrival, departure: arrival.addingTimeInterval(425), start: .arrived, end: end,
      position: GeoCoordinate(latitude: 51.507268, longitude: -0.129902), wander: wander, positions: 9)
  }

  @Test func aStopCarriesItsTimesHowItWasCutAndWhereItStood() {
    #expect(
      ControlCoding.text(WireStop(Self.stop(end: .shiftEnded)))
        == #"{"arrival":"2024-05-01T10:10:01.000Z","cut":"still stopped when the shift ended","#
        + #""departure":"2024-05-01T10:17:06.000Z","duration_s":425,"end":"shift_ended","latitude":51.507268,"#
        + #""longitude":-0.129902,"place":null,"positions":9,"start":"arrived","wander_m":10}"#)
    #expect(ControlCoding.text(WireStop(Self.stop(end: .departed))).contains(#""cut":null,"#))
    // Inside a place: its name (the smallest that holds the stop's position).
    let depot = Place(
      name: "Depot", kind: .depot,
      area: .circle(centre: GeoCoordinate(latitude: 51.5073, longitude: -0.1299), radius: 80))
    let yard = Place(
      name: "Yard", kind: .customer,
      area: .circle(centre: GeoCoordinate(latitude: 51.5073, longitude: -0.1299), radius: 20))
    let far = Place(
      name: "Far", kind: .customer, area: .circle(centre: GeoCoordinate(latitude: 51.6, longitude: -0.1), radius: 80))
    let stop = Self.stop(end: .departed)
    #expect(stop.place(in: [depot, yard, far])?.name == "Yard")
    #expect(ControlCoding.text(WireStop(stop, place: stop.place(in: [depot, far]))).contains(#""place":"Depot","#))
    #expect(stop.place(in: [far]) == nil)
  }

  @Test func theTimeAddsUpAndSaysWhatItsWordsMean() {
    let window = DateInterval(start: Self.arrival, duration: 2400)
    let time = ShiftTime(window: window, moving: 1500, stopped: 600, notCaptured: 300)
    #expect(
      ControlCoding.text(WireShiftTime(time, minimumStop: 120))
        == #"{"from":"2024-05-01T10:10:01.000Z","minimum_stop_s":120,"moving_s":1500,"not_captured_s":300,"#
        + #""qualifying_sentences":["Stopped is standing still for 2 min or more with the receiver reporting; "#
        + #"shorter halts count as moving.","Not captured is time with no positions recorded: where the vehicle "#
        + #"was then is not known."],"spoken":"25 minutes moving, 10 minutes stopped, and 5 minutes not captured. "#
        + #"Not captured is time with no positions recorded: where the vehicle was then is not known.","#
        + #""stopped_s":600,"summary":"25 min moving · 10 min stopped · 5 min not captured","#
        + #""to":"2024-05-01T10:50:01.000Z"}"#)
  }

  @Test func theDetailCarriesBothAndAClientReadsThemBack() throws {
    let distance = WireDistance(.empty, unit: .miles)
    let shift = ShiftSummary(
      id: 4, startedAt: Self.arrival, endedAt: Self.arrival.addingTimeInterval(2400), distance: distance,
      summary: "s", details: [], spoken: "s")
    let time = ShiftTime(
      window: DateInterval(start: Self.arrival, duration: 2400), moving: 1975, stopped: 425, notCaptured: 0)
    let detail = ShiftDetail(
      shift: shift, qualifyingSentences: [], captureSessions: 1,
      stops: [WireStop(Self.stop(end: .departed, wander: 12.5))],
      time: WireShiftTime(time, minimumStop: 90))
    let text = ControlCoding.text(detail)
    let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    #expect(Set(object.keys) == ["shift", "qualifying_sentences", "capture_sessions", "gaps", "stops", "time", "jobs"])
    let read = try ControlCoding.makeDecoder().decode(ShiftDetail.self, from: Data(text.utf8))
    #expect(read.stops == detail.stops)
    #expect(read.stops.first?.cut == nil)
    #expect(read.time == detail.time)
    #expect(read.time.summary == "33 min moving · 7 min stopped")
    #expect(read.time.qualifyingSentences.first?.hasPrefix("Stopped is standing still for 90 s or more") == true)
  }
}
