import ControlProtocol
import DashPilotCore
import Foundation
import TestSupport
import Testing

/// docs/events.md is the contract of `dashpilotctl events`: every example in it is a line
/// the protocol reads and writes back byte for byte, and every type the daemon sends has
/// one.
@Suite("The events vocabulary and docs/events.md")
struct EventVocabularyTests {
  /// One example line of the page, under the heading it appears beneath (the type in
  /// backticks, or the page's last section for an unknown type).
  struct Example: CustomStringConvertible {
    var heading: String
    var line: String
    var description: String { "\(heading): \(line)" }
  }

  static let unknownTypeHeading = "A type this client does not know"

  static func examples() throws -> [Example] {
    let page = try String(
      contentsOf: TestPaths.repositoryRoot.appendingPathComponent("docs/events.md"), encoding: .utf8)
    var examples: [Example] = []
    var heading = ""
    var inBlock = false
    for line in page.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
      if line.hasPrefix("### `") {
        heading = String(line.dropFirst(5).prefix { $0 != "`" })
      } else if line == "## " + unknownTypeHeading {
        heading = unknownTypeHeading
      } else if line == "```json" {
        inBlock = true
      } else if line == "```" {
        inBlock = false
      } else if inBlock {
        examples.append(Example(heading: heading, line: line))
      }
    }
    return examples
  }

  static func decode(_ example: Example) throws -> ControlEvent {
    guard case .event(let event) = try ServerLine.parse(Data(example.line.utf8)).get() else {
      throw ExampleFailure("not an event line: \(example)")
    }
    return event
  }

  struct ExampleFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
  }

  @Test("every example decodes under its heading's type and is written back byte for byte")
  func examplesRoundTrip() throws {
    let examples = try Self.examples()
    #expect(examples.count == 52)
    for example in examples {
      let event = try Self.decode(example)
      if example.heading == Self.unknownTypeHeading {
        #expect(event.payload.kind == nil, "\(example)")
      } else {
        #expect(event.payload.kind?.rawValue == example.heading, "\(example)")
      }
      #expect(String(decoding: event.encodedLine, as: UTF8.self) == example.line + "\n", "\(example)")
    }
  }

  @Test("every type the daemon sends has its own section with an example, and no section names another")
  func everyTypeDocumented() throws {
    let examples = try Self.examples()
    let documented = Set(examples.map(\.heading)).subtracting([Self.unknownTypeHeading])
    #expect(documented == Set(DaemonEvent.Kind.allCases.map(\.rawValue)))
    let decodedKinds = Set(try examples.compactMap { try Self.decode($0).payload.kind })
    #expect(decodedKinds == Set(DaemonEvent.Kind.allCases))
  }

  @Test("the journal's session, shift and reason are the event's fields of those names")
  func journalFieldsAreTheEventsFields() throws {
    for example in try Self.examples() {
      let event = try Self.decode(example)
      let line = try ControlCoding.makeDecoder().decode(JSONValue.self, from: Data(example.line.utf8))
      let fields = line["event"]?["fields"]
      #expect(event.payload.session == fields?["session"]?.stringValue, "\(example)")
      #expect(event.payload.shift == fields?["shift"]?.integerValue, "\(example)")
      #expect(event.payload.reason == fields?["reason"]?.stringValue, "\(example)")
    }
  }

  @Test("a type this build does not know keeps its fields as they came")
  func unknownType() throws {
    let example = try #require(try Self.examples().first { $0.heading == Self.unknownTypeHeading })
    let event = try Self.decode(example)
    #expect(event.payload == .unrecognised(type: "example.future", fields: ["example": .bool(true)]))
    #expect(event.type == "example.future")
    #expect(event.message == "a newer daemon's event")
  }

  @Test("a time in the fields is UTCTimestamp's (nearest millisecond), so every millisecond reads back as written")
  func millisecondTimes() throws {
    let second = 1_715_673_720.0  // 2024-05-14T08:02:00Z
    #expect(UTCTimestamp.string(Date(timeIntervalSince1970: second + 0.0024999)) == "2024-05-14T08:02:00.002Z")
    #expect(UTCTimestamp.string(Date(timeIntervalSince1970: second + 0.0025001)) == "2024-05-14T08:02:00.003Z")
    #expect(UTCTimestamp.string(Date(timeIntervalSince1970: second + 0.9996)) == "2024-05-14T08:02:01.000Z")
    let decoder = JSONDecoder()
    let encoder = JSONEncoder()
    var unequal: [String] = []
    for millisecond in 0..<1000 {
      let text = "\"2024-05-14T08:02:00.\(String(format: "%03d", millisecond))Z\""
      let read = try decoder.decode(EventTime<Date>.self, from: Data(text.utf8))
      let written = String(decoding: try encoder.encode(read), as: UTF8.self)
      if written != text { unequal.append("\(text) -> \(written)") }
    }
    #expect(unequal == [])
  }
}
