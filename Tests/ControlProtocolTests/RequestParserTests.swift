import ControlProtocol
import DashPilotCore
import Foundation
import Testing

@Suite("RequestParser")
struct RequestParserTests {
  func code(_ line: String) -> ControlError.Code? {
    if case .failure(let failure) = RequestParser.parse(Array(line.utf8)) { return failure.error.code }
    return nil
  }

  func message(_ line: String) -> String? {
    if case .failure(let failure) = RequestParser.parse(Array(line.utf8)) { return failure.error.message }
    return nil
  }

  @Test("a status request parses with its id")
  func status() throws {
    let request = try RequestParser.parse(Array(#"{"v":1,"id":7,"cmd":"status"}"#.utf8)).get()
    #expect(request == ControlRequest(id: 7, command: .status))
  }

  @Test(
    "each kind of broken line gets its own code",
    arguments: [
      ("garbage", ControlError.Code.notJSON),
      ("", .notJSON),
      ("[1,2]", .badRequest),
      (#"{"id":1,"cmd":"status"}"#, .badRequest),
      (#"{"v":2,"id":1,"cmd":"status"}"#, .unsupportedVersion),
      (#"{"v":"1","id":1,"cmd":"status"}"#, .unsupportedVersion),
      (#"{"v":1,"cmd":"status"}"#, .badRequest),
      (#"{"v":1,"id":1.5,"cmd":"status"}"#, .badRequest),
      (#"{"v":1,"id":1}"#, .badRequest),
      (#"{"v":1,"id":1,"cmd":"reboot"}"#, .unknownCommand),
      (#"{"v":1,"id":1,"cmd":"status","extra":true}"#, .badRequest),
      (#"{"v":1,"id":1,"cmd":"status","args":[]}"#, .badArguments),
      (#"{"v":1,"id":1,"cmd":"status","args":{"verbose":true}}"#, .badArguments),
      (#"{"v":1,"id":1,"cmd":"shift.show"}"#, .badArguments),
      (#"{"v":1,"id":1,"cmd":"shift.show","args":{"id":0}}"#, .badArguments),
      (#"{"v":1,"id":1,"cmd":"shift.show","args":{"id":"3"}}"#, .badArguments),
      (#"{"v":1,"id":1,"cmd":"navigate","args":{"destination":{"lat":91,"lon":0}}}"#, .badArguments),
      (#"{"v":1,"id":1,"cmd":"navigate","args":{"destination":{"lat":1,"lon":2},"mode":"flying"}}"#, .badArguments),
      (#"{"v":1,"id":1,"cmd":"import","args":{"points":[{"lat":1,"lon":2}]}}"#, .badArguments),
      (#"{"v":1,"id":1,"cmd":"route.load","args":{"coordinates":"x"}}"#, .badArguments),
    ])
  func brokenLines(line: String, expected: ControlError.Code) {
    #expect(code(line) == expected)
  }

  @Test("an error keeps the request's id when it had one")
  func errorEchoesID() {
    guard case .failure(let failure) = RequestParser.parse(Array(#"{"v":9,"id":41,"cmd":"status"}"#.utf8)) else {
      Issue.record("version 9 was accepted")
      return
    }
    #expect(failure.id == 41)
    #expect(failure.error.message == "protocol version 9 is not supported; this daemon speaks version 1")
  }

  @Test("a line over 64 KiB is refused as too long, one at the limit is read")
  func lineLimit() {
    let padding = String(repeating: " ", count: ControlProtocolLimits.maximumLineLength - 30)
    let atLimit = #"{"v":1,"id":1,"cmd":"status"}"# + padding
    #expect(atLimit.utf8.count == ControlProtocolLimits.maximumLineLength - 1)
    #expect(code(atLimit) == nil)
    #expect(code(atLimit + "  ") == .lineTooLong)
  }

  @Test("deep nesting within the line limit is refused, not a stack overflow")
  func deepNesting() {
    #expect(code(String(repeating: "[", count: 65_000)) == .notJSON)
    #expect(code(#"{"v":1,"id":1,"cmd":"status","args":"# + String(repeating: #"{"a":"#, count: 12_000)) == .notJSON)
    let closed =
      #"{"v":1,"id":1,"cmd":"status","args":{"x":"# + String(repeating: "[", count: 5_000)
      + String(repeating: "]", count: 5_000) + "}}"
    #expect(code(closed) == .notJSON)
  }

  @Test("a trailing carriage return is allowed")
  func carriageReturn() {
    #expect(code(#"{"v":1,"id":1,"cmd":"status"}"# + "\r") == nil)
  }

  @Test(
    "every kind of request survives encoding and parsing unchanged",
    arguments: [
      ControlRequest(id: 1, command: .status),
      ControlRequest(id: 2, command: .shiftStart),
      ControlRequest(id: 3, command: .shifts(ShiftsArguments(limit: 5))),
      ControlRequest(
        id: 4,
        command: .shifts(
          ShiftsArguments(
            limit: 20, before: 31, since: Date(timeIntervalSince1970: 1_790_000_000),
            until: Date(timeIntervalSince1970: 1_790_086_400)))),
      ControlRequest(id: 4, command: .shiftShow(id: 12)),
      ControlRequest(id: 5, command: .export(id: 9_000_000_000)),
      ControlRequest(
        id: 6,
        command: .import(
          ImportArguments(
            name: "Tuesday",
            points: [
              WireTrackPoint(lat: 51.5, lon: -0.12, time: 1_700_000_000.25, accuracy: 4),
              WireTrackPoint(lat: 51.6, lon: -0.1, time: 1_700_000_001),
            ],
            more: true))),
      ControlRequest(
        id: 7,
        command: .routeLoad(
          RouteLoadArguments(
            name: nil, mode: .walking,
            coordinates: [WireCoordinate(lat: -33.9, lon: 151.2), WireCoordinate(lat: -33.8, lon: 151.3)]))),
      ControlRequest(
        id: 8, command: .navigate(NavigateArguments(destination: WireCoordinate(lat: 37.5, lon: 127), mode: .driving))),
      ControlRequest(id: 9, command: .events),
      ControlRequest(id: 10, command: .report(ReportArguments(id: 12))),
      ControlRequest(id: 12, command: .placesLoad(PlacesLoadArguments(text: #"{"type":"FeatureCollection"}"#))),
      ControlRequest(
        id: 11,
        command: .report(
          ReportArguments(
            id: 12, mode: .walking,
            route: [WireCoordinate(lat: 51.5, lon: -0.12), WireCoordinate(lat: 51.6, lon: -0.1)],
            more: true))),
    ])
  func roundTrip(request: ControlRequest) throws {
    let line = request.encodedLine()
    #expect(line.last == 0x0A)
    let parsed = try RequestParser.parse(line.dropLast()).get()
    #expect(parsed == request)
  }

  @Test("a report names its shift; its route is coordinates, as a route load's are")
  func reportArguments() {
    #expect(code(#"{"v":1,"id":1,"cmd":"report","args":{"id":3,"route":null}}"#) == nil)
    #expect(
      message(#"{"v":1,"id":1,"cmd":"report","args":{}}"#) == #"report: needs an integer "id""#)
    #expect(
      message(#"{"v":1,"id":1,"cmd":"report","args":{"id":3,"route":[{"lat":91,"lon":0}]}}"#)
        == "report: route[0] is not a position on Earth (latitude within ±90, longitude within ±180)")
    #expect(
      message(#"{"v":1,"id":1,"cmd":"report","args":{"id":3,"mode":"flying"}}"#)
        == #"report: "mode" must be "driving" or "walking""#)
  }

  @Test("only the commands that change state are marked so")
  func stateChangingCommands() {
    let changing = ControlCommand.Kind.allCases.filter(\.changesState).map(\.rawValue).sorted()
    #expect(
      changing == [
        "backup", "import", "job.assign", "job.assign_all", "job.cancel", "navigate", "places.load", "route.clear",
        "route.load", "shift.end", "shift.resend", "shift.start",
      ])
  }

  @Test("places.load carries the file's FeatureCollection, as an object or its text")
  func placesLoad() throws {
    let object = #"{"type":"FeatureCollection","features":[]}"#
    let asObject = try RequestParser.parse(
      Array(#"{"v":1,"id":1,"cmd":"places.load","args":{"geojson":\#(object)}}"#.utf8)
    ).get()
    // An object is carried as its JSON text, keys sorted, as every object the socket writes.
    #expect(asObject.command == .placesLoad(PlacesLoadArguments(text: #"{"features":[],"type":"FeatureCollection"}"#)))
    let asText = try RequestParser.parse(
      Array(#"{"v":1,"id":1,"cmd":"places.load","args":{"geojson":"[]"}}"#.utf8)
    ).get()
    #expect(asText.command == .placesLoad(PlacesLoadArguments(text: "[]")))
    #expect(
      message(#"{"v":1,"id":1,"cmd":"places.load"}"#)
        == #"places.load: needs "geojson": the places file's FeatureCollection"#)
    #expect(
      message(#"{"v":1,"id":1,"cmd":"places.load","args":{"geojson":3}}"#)
        == #"places.load: "geojson" must be a GeoJSON object, or its text as a string"#)
  }

  @Test("job.assign: the job read whole, written back as read; each mistake named, nothing else read")
  func jobAssign() throws {
    let line =
      #"{"v":1,"id":"c1","cmd":"job.assign","args":{"id":"A-1","name":"Flowers","destination":{"lat":51.5,"lon":-0.12},"#
      + #""radius_m":80,"window_start":"2026-12-02T09:00:00Z","window_end":"2026-12-02T11:00:00Z","note":"ring twice"}}"#
    let request = try RequestParser.parse(Array(line.utf8)).get()
    let job = DeliveryJob(
      id: "A-1", name: "Flowers", destination: GeoCoordinate(latitude: 51.5, longitude: -0.12), radius: 80,
      window: DateInterval(
        start: Date(timeIntervalSince1970: 1_796_202_000), end: Date(timeIntervalSince1970: 1_796_209_200)),
      note: "ring twice")
    #expect(request.command == .jobAssign(job))
    // Written and read back: the same job.
    let again = try RequestParser.parse(Array(ControlRequest(id: 1, command: .jobAssign(job)).encodedLine())).get()
    #expect(again.command == .jobAssign(job))
    let defaults = try RequestParser.parse(
      Array(#"{"v":1,"id":1,"cmd":"job.assign","args":{"id":"B","name":"B","destination":{"lat":1,"lon":2}}}"#.utf8)
    ).get()
    #expect(
      defaults.command
        == .jobAssign(
          DeliveryJob(id: "B", name: "B", destination: GeoCoordinate(latitude: 1, longitude: 2), radius: 50)))

    let wrong: [(String, String)] = [
      (#"{"id":"A","name":"A"}"#, #"needs "destination": {"lat":…,"lon":…}, where the job is"#),
      (#"{"name":"A","destination":{"lat":1,"lon":2}}"#, #"needs "id": the job's id, 1 to 64 bytes"#),
      (#"{"id":"A","destination":{"lat":1,"lon":2}}"#, #"needs "name": what the driver reads and hears"#),
      (
        #"{"id":"A","name":"A","destination":{"lat":1,"lon":2},"radius_m":1001}"#,
        #""radius_m" must be a number of metres from 10 to 1000"#
      ),
      (
        #"{"id":"A","name":"A","destination":{"lat":1,"lon":2},"window_start":"2026-12-02T09:00:00Z"}"#,
        #"a window needs both "window_start" and "window_end""#
      ),
      (
        #"{"id":"A","name":"A","destination":{"lat":1,"lon":2},"window_start":"2026-12-02T09:00:00Z","window_end":"2026-12-02T08:00:00Z"}"#,
        #""window_end" must come after "window_start""#
      ),
      (
        #"{"id":"A","name":"A","destination":{"lat":91,"lon":2}}"#,
        "destination is not a position on Earth (latitude within ±90, longitude within ±180)"
      ),
      (
        #"{"id":"A","name":"A","destination":{"lat":1,"lon":2},"colour":"red"}"#,
        #"does not take the argument "colour""#
      ),
    ]
    for (args, expected) in wrong {
      #expect(message(#"{"v":1,"id":1,"cmd":"job.assign","args":\#(args)}"#) == "job.assign: " + expected, "\(args)")
    }
    #expect(
      message(#"{"v":1,"id":1,"cmd":"job.cancel","args":{}}"#)
        == #"job.cancel: needs "id": the job's id, 1 to 64 bytes"#)
    #expect(try RequestParser.parse(Array(#"{"v":1,"id":1,"cmd":"job.list"}"#.utf8)).get().command == .jobList)
  }

  @Test("pseudo-random bytes always give an answer, never a trap")
  func randomBytes() {
    var state: UInt64 = 0x1234_5678
    var codes: Set<ControlError.Code> = []
    for length in 0..<400 {
      var bytes: [UInt8] = []
      for _ in 0..<length {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        bytes.append(UInt8(truncatingIfNeeded: state >> 33))
      }
      if case .failure(let failure) = RequestParser.parse(bytes) { codes.insert(failure.error.code) }
    }
    #expect(codes == [.notJSON])
  }
}

@Suite("Responses and events")
struct ResponseTests {
  @Test("a failure without an id writes an explicit null id")
  func failureWithoutID() {
    let line = String(decoding: ControlResponse.failure(id: nil, error: ControlError(.notJSON, "bad")), as: UTF8.self)
    #expect(line == #"{"error":{"code":"not_json","message":"bad"},"id":null,"ok":false,"v":1}"# + "\n")
  }

  @Test("the client reads answers and events back")
  func serverLines() throws {
    let answer = ControlResponse.success(id: 3, result: Acknowledgement(message: "done"))
    guard case .answer(let id, let outcome) = try ServerLine.parse(answer.dropLast()).get() else {
      Issue.record("not an answer")
      return
    }
    #expect(id == 3)
    #expect(try outcome.get() == .object(["message": .string("done")]))
    let event = ControlEvent(.daemonHangup, time: Date(timeIntervalSince1970: 1_700_000_000), message: "hup")
    guard case .event(let decoded) = try ServerLine.parse(event.encodedLine.dropLast()).get() else {
      Issue.record("not an event")
      return
    }
    #expect(decoded == event)
  }

  @Test("status encodes what is unknown as explicit nulls")
  func statusNulls() throws {
    let status = StatusResult(
      daemon: DaemonSection(
        version: "0.1.0", pid: 1, startedAt: Date(timeIntervalSince1970: 0), uptimeSeconds: 1, socket: "/s",
        config: nil, state: "running", units: "miles"),
      gpsd: GPSDSection(address: "localhost:2947"), capture: CaptureSection(), shift: nil, guidance: nil,
      store: StoreSection(path: "/db"))
    let object = try #require(
      try JSONSerialization.jsonObject(with: ControlCoding.makeEncoder().encode(status)) as? [String: Any])
    let gpsd = try #require(object["gpsd"] as? [String: Any])
    #expect(gpsd["connected"] as? Bool == false)
    #expect(gpsd["device"] is NSNull)
    #expect(gpsd["fix_mode"] is NSNull)
    #expect(object["shift"] is NSNull)
    #expect(object["guidance"] is NSNull)
    #expect((object["capture"] as? [String: Any])?["accepted"] is NSNull)
    #expect((object["store"] as? [String: Any])?["ok"] is NSNull)
    let decoded = try ControlCoding.makeDecoder().decode(
      StatusResult.self, from: ControlCoding.makeEncoder().encode(status))
    #expect(decoded == status)
  }
}
