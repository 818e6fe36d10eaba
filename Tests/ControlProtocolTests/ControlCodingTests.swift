import ControlProtocol
import Foundation
import Testing

/// Times on the socket are written as every time DashPilot writes one, and read back.
struct ControlCodingTests {
  struct Stamped: Codable, Equatable {
    var at: Date
  }

  @Test func datesCarryMillisecondsAndReadBack() throws {
    let half = Stamped(at: Date(timeIntervalSince1970: 1_714_557_600.5))
    #expect(ControlCoding.text(half) == #"{"at":"2024-05-01T10:00:00.500Z"}"#)
    let read = try ControlCoding.makeDecoder().decode(Stamped.self, from: Data(ControlCoding.text(half).utf8))
    #expect(read == half)
    // Whole seconds, as Foundation's .iso8601 wrote them before, read too.
    let older = try ControlCoding.makeDecoder().decode(Stamped.self, from: Data(#"{"at":"2024-05-01T10:00:00Z"}"#.utf8))
    #expect(older == Stamped(at: Date(timeIntervalSince1970: 1_714_557_600)))
    #expect(throws: DecodingError.self) {
      try ControlCoding.makeDecoder().decode(Stamped.self, from: Data(#"{"at":"yesterday"}"#.utf8))
    }
  }
}
