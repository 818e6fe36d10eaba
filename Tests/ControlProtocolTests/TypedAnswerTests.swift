import ControlProtocol
import Foundation
import Testing

/// An answer line read straight into its command's type, and every line it leaves to
/// `ServerLine`.
@Suite("Typed answers")
struct TypedAnswerTests {
  static func parse(_ line: String) -> (id: RequestID?, outcome: Result<TrackPart, ControlError>)?? {
    TypedAnswer.parse(Data(line.utf8), as: TrackPart.self)
  }

  @Test("a success is its result, with the request's id")
  func success() throws {
    let parsed = try #require(
      Self.parse(
        #"{"id":4,"ok":true,"result":{"continues":true,"more":false,"segments":[[{"lat":1,"lon":2,"time":3}]]},"v":1}"#)
        ?? nil)
    #expect(parsed.id == .number(4))
    #expect(
      try parsed.outcome.get()
        == TrackPart(segments: [[WireTrackPoint(lat: 1, lon: 2, time: 3)]], continues: true, more: false))
  }

  @Test("a failure is its error")
  func failure() throws {
    let parsed = try #require(
      Self.parse(#"{"error":{"code":"not_found","message":"no shift 9"},"id":4,"ok":false,"v":1}"#) ?? nil)
    guard case .failure(let error) = parsed.outcome else {
      Issue.record("a failure was read as a success")
      return
    }
    #expect(error == ControlError(.notFound, "no shift 9"))
  }

  @Test("an event line is told apart from an answer")
  func event() {
    let parsed = Self.parse(
      #"{"event":{"fields":{},"message":"m","time":"2024-05-14T08:00:02.000Z","type":"gpsd.connected"},"v":1}"#)
    #expect(parsed.map { $0 == nil } == true)
  }

  @Test(
    "a line of another shape, version or no JSON at all is left to ServerLine",
    arguments: [
      #"{"id":4,"ok":true,"result":{"shifts":[]},"v":1}"#,
      #"{"id":4,"ok":true,"result":{"continues":true,"more":false,"segments":[]},"v":2}"#,
      #"{"id":4,"result":{"continues":true,"more":false,"segments":[]},"v":1}"#,
      "not json",
    ])
  func leftAlone(_ line: String) {
    #expect(Self.parse(line) == nil)
  }
}
