import ControlProtocol
import Testing

/// `route.load` with the route as a route file's text (`args.gpx`, `args.geojson`), as the
/// one parser of the socket and the fleet's command topic reads it: the text is carried
/// unread (the daemon reads it with the CLI's reader), and every other shape is refused
/// with `bad_arguments` naming what was wrong.
@Suite("route.load with the route inline")
struct InlineRouteArgumentsTests {
  static let gpx =
    #"<gpx version="1.1"><rte><rtept lat="48.85" lon="2.35"/><rtept lat="48.86" lon="2.35"/></rte></gpx>"#

  static func parse(_ line: String, limit: Int = ControlProtocolLimits.maximumLineLength) -> Result<
    ControlRequest, RequestParseError
  > {
    RequestParser.parse(Array(line.utf8), limit: limit)
  }

  static func arguments(_ line: String) throws -> RouteLoadArguments {
    guard case .routeLoad(let arguments) = try parse(line).get().command else {
      throw ParseFailure(line: line)
    }
    return arguments
  }

  struct ParseFailure: Error { var line: String }

  static func refusal(_ line: String, limit: Int = ControlProtocolLimits.maximumLineLength) -> ControlError? {
    guard case .failure(let failure) = parse(line, limit: limit) else { return nil }
    return failure.error
  }

  @Test("args.gpx is carried as its text, with the name and mode beside it")
  func gpxText() throws {
    let escaped = Self.gpx.replacingOccurrences(of: "\"", with: "\\\"")
    let arguments = try Self.arguments(
      #"{"v":1,"id":"g","cmd":"route.load","args":{"name":"north loop","mode":"walking","gpx":"\#(escaped)"}}"#)
    #expect(
      arguments
        == RouteLoadArguments(
          name: "north loop", mode: .walking, coordinates: [], inline: InlineRoute(format: .gpx, text: Self.gpx)))
    #expect(arguments.inline?.source == "args.gpx")
  }

  @Test("args.geojson is taken as its text, or as an object carried as the object's JSON text")
  func geojson() throws {
    let text = #"{"type":"LineString","coordinates":[[2.35,48.85],[2.35,48.86]]}"#
    let asString = try Self.arguments(
      #"{"v":1,"id":"s","cmd":"route.load","args":{"geojson":"\#(text.replacingOccurrences(of: "\"", with: "\\\""))"}}"#
    )
    #expect(asString.inline == InlineRoute(format: .geojson, text: text))
    #expect(asString.mode == .driving)
    #expect(asString.coordinates == [])
    let asObject = try Self.arguments(#"{"v":1,"id":"o","cmd":"route.load","args":{"geojson":\#(text)}}"#)
    // Keys sorted, as the protocol's encoder writes every object.
    #expect(
      asObject.inline
        == InlineRoute(format: .geojson, text: #"{"coordinates":[[2.35,48.85],[2.35,48.86]],"type":"LineString"}"#))
    #expect(asObject.inline?.source == "args.geojson")
  }

  @Test("a null form is an absent one, as for every argument")
  func nullForms() throws {
    let arguments = try Self.arguments(
      #"{"v":1,"id":"n","cmd":"route.load","args":{"gpx":null,"geojson":null,"coordinates":[{"lat":1,"lon":2}]}}"#)
    #expect(arguments == RouteLoadArguments(mode: .driving, coordinates: [WireCoordinate(lat: 1, lon: 2)]))
  }

  @Test("an inline route's request encodes and parses back to itself")
  func roundTrip() throws {
    let request = ControlRequest(
      id: .text("office-route-4"),
      command: .routeLoad(
        RouteLoadArguments(
          name: "n", mode: .walking, coordinates: [], inline: InlineRoute(format: .gpx, text: Self.gpx))
      ))
    let line = request.encodedLine()
    #expect(try RequestParser.parse(line.dropLast()).get() == request)
  }

  @Test(
    "each bad form is refused with bad_arguments, saying what was wrong",
    arguments: [
      (#"{}"#, #"route.load: needs the route, as "coordinates", "geojson" or "gpx""#),
      (
        #"{"coordinates":[{"lat":1,"lon":2}],"gpx":"<gpx/>"}"#,
        #"route.load: takes the route once, as "coordinates", "geojson" or "gpx"; it has "coordinates" and "gpx""#
      ),
      (
        #"{"geojson":{"type":"LineString"},"gpx":"<gpx/>"}"#,
        #"route.load: takes the route once, as "coordinates", "geojson" or "gpx"; it has "geojson" and "gpx""#
      ),
      (#"{"gpx":{"rte":[]}}"#, #"route.load: "gpx" must be a string: the GPX document's text"#),
      (#"{"gpx":7}"#, #"route.load: "gpx" must be a string: the GPX document's text"#),
      (#"{"geojson":[[2.35,48.85]]}"#, #"route.load: "geojson" must be a GeoJSON object, or its text as a string"#),
      (
        #"{"gpx":"<gpx/>","more":true}"#,
        #"route.load: "more" is for coordinates sent in parts; a route sent as "gpx" comes whole"#
      ),
      (#"{"gpx":"<gpx/>","more":"no"}"#, #"route.load: "more" must be true or false"#),
      (#"{"gpx":"<gpx/>","file":"a.gpx"}"#, #"route.load: does not take the argument "file""#),
    ])
  func badForms(args: String, message: String) {
    let refused = Self.refusal(#"{"v":1,"id":"b","cmd":"route.load","args":\#(args)}"#)
    #expect(refused == ControlError(.badArguments, message))
  }

  /// Unreachable through either channel's own limit (a line is at most 64 KiB, a fleet
  /// command at most 1 MiB, all of it), so it is shown with a larger limit: the parser
  /// holds the route text to 1 MiB wherever it is called from.
  @Test("route text over 1 MiB is refused, with its size")
  func tooMuchText() {
    let text = String(repeating: "x", count: InlineRoute.maximumBytes + 1)
    let line = #"{"v":1,"id":"big","cmd":"route.load","args":{"gpx":"\#(text)"}}"#
    #expect(
      Self.refusal(line, limit: 2 * InlineRoute.maximumBytes)
        == ControlError(.badArguments, #"route.load: "gpx" is 1048577 bytes; a route sent inline is at most 1048576"#))
    let atTheLimit = String(repeating: "x", count: InlineRoute.maximumBytes)
    let fits = #"{"v":1,"id":"big","cmd":"route.load","args":{"gpx":"\#(atTheLimit)"}}"#
    #expect(Self.refusal(fits, limit: 2 * InlineRoute.maximumBytes) == nil)
    // Through the fleet's own limit (as the intake parses), the payload's size answers first.
    guard
      case .failure(let failure) = RequestParser.parse(
        Array(line.utf8), limit: ControlProtocolLimits.maximumCommandSize, tooLong: .tooLarge)
    else {
      Issue.record("a payload over 1 MiB was taken")
      return
    }
    #expect(failure.error == ControlError(.tooLarge, "the request is 1048632 bytes; the limit is 1048576"))
  }

  @Test("a route file's text cannot continue coordinates sent in parts")
  func notAPart() {
    let sofar = RouteLoadArguments(mode: .driving, coordinates: [WireCoordinate(lat: 1, lon: 2)], more: true)
    let stray = RouteLoadArguments(mode: .driving, coordinates: [], inline: InlineRoute(format: .gpx, text: "<gpx/>"))
    #expect(sofar.mismatch(with: stray) == #"a route sent as "gpx" cannot continue coordinates sent in parts"#)
  }
}
