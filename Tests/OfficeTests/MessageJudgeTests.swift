import Foundation
import OfficeCore
import TestSupport
import Testing

/// The judge against the contract page: every payload docs/uplink-messages.md shows a box
/// publishing on a topic the office stores is accepted as it stands, and each kind of bad
/// input is refused with its code and a sentence naming what was wrong.
struct MessageJudgeTests {
  static let judge = MessageJudge(topics: try! BoxTopics(pattern: "dashpilot/+"), maximumPayload: 4096)

  /// The page's payloads with a schema the office stores, each with the topic it goes on.
  static func pagePayloads() throws -> [(topic: String, payload: String)] {
    let page = try String(
      contentsOf: TestPaths.repositoryRoot.appendingPathComponent("docs/uplink-messages.md"), encoding: .utf8)
    var inBlock = false
    var found: [(String, String)] = []
    for line in page.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
      if line == "```json" || line == "```" {
        inBlock = line == "```json"
        continue
      }
      guard inBlock, let kind = BoxTopics.Kind.allCases.first(where: { line.contains("\"schema\":\"\($0.schema)\"") })
      else { continue }
      found.append(("dashpilot/van-7/\(kind.rawValue)", line))
    }
    return found
  }

  @Test func acceptsEveryPayloadThePageShowsABoxPublishing() throws {
    let payloads = try Self.pagePayloads()
    #expect(payloads.count == 12)
    var kinds: [String: Int] = [:]
    for (topic, payload) in payloads {
      let judgement = Self.judge.judge(topic: topic, payload: Array(payload.utf8))
      guard case .accepted(let message) = judgement else {
        Issue.record("refused \(payload): \(judgement)")
        continue
      }
      kinds[topic.split(separator: "/").last.map(String.init) ?? "", default: 0] += 1
      #expect(message.vehicle == "van-7")
    }
    #expect(kinds == ["samples": 1, "shift": 1, "session": 1, "stop": 1, "status": 2, "events": 6])
  }

  @Test func theSamplesOfThePageWithTheirSessionsResolved() throws {
    let (topic, payload) = try #require(Self.pagePayloads().first { $0.topic.hasSuffix("/samples") })
    guard
      case .accepted(.samples(let envelope, let body)) = Self.judge.judge(topic: topic, payload: Array(payload.utf8))
    else {
      Issue.record("not accepted as samples")
      return
    }
    #expect(envelope.key == "van-7/42/17" && envelope.sequence == 17 && body.shift == 42)
    #expect(body.samples.map(\.captureSession) == ["cs-1", "cs-2"])
    #expect(body.samples.map(\.speed) == [12.5, nil])
    #expect(body.samples[1].accuracy == 7.3)
  }

  static let good =
    #"{"schema":"dashpilot.samples/1","key":"van-7/42/17","vehicle":"van-7","shift":42,"sequence":17,"queued_at":"2023-11-14T22:13:22.000Z","capture_session":"cs-1","samples":[{"time":"2023-11-14T22:13:20.000Z","lat":51.5,"lon":-0.12,"accuracy":5.0}]}"#

  @Test(arguments: [
    ("dashpilot/van-7/samples", "not json", "not_json: the payload is not JSON"),
    ("dashpilot/van-7/samples", "[1,2]", "not_json: the payload is JSON but not an object"),
    ("dashpilot/van-7/samples", #"{"vehicle":"van-7"}"#, "unknown_schema: the payload has no schema"),
    (
      "dashpilot/van-7/samples", good.replacing("samples/1", with: "samples/2"),
      "unknown_schema: the schema \"dashpilot.samples/2\" is none the office knows"
    ),
    (
      "dashpilot/van-7/samples", good.replacing(#""key":"van-7/42/17""#, with: #""key":"van-7/41/17""#),
      "key_mismatch: key \"van-7/41/17\" is not \"van-7/42/17\", the message's vehicle/shift/sequence"
    ),
    (
      "dashpilot/van-8/samples", good,
      "vehicle_mismatch: the vehicle \"van-7\" wrote on dashpilot/van-8/samples, the topic of \"van-8\""
    ),
    (
      "dashpilot/van-7/stop", good,
      "wrong_topic: a dashpilot.samples/1 message on dashpilot/van-7/stop, where dashpilot.stop/1 belongs"
    ),
    (
      "dashpilot/van-7/samples", good.replacing(#""lat":51.5"#, with: #""lat":91.5"#),
      "malformed: samples[0] at 91.5,-0.12 is not on Earth"
    ),
    (
      "dashpilot/van-7/samples", good.replacing(#""lat":51.5"#, with: #""lat":"51.5""#),
      "malformed: samples[0].lat is not a number"
    ),
    ("dashpilot/van-7/samples", good.replacing(#","sequence":17"#, with: ""), "malformed: \"sequence\" is missing"),
    (
      "dashpilot/van-7/samples", good.replacing(#""shift":42"#, with: #""shift":null"#),
      "key_mismatch: key \"van-7/42/17\" is not \"van-7/-/17\", the message's vehicle/shift/sequence"
    ),
    (
      "dashpilot/van-7/samples", good.replacing("2023-11-14T22:13:20.000Z", with: "yesterday"),
      "malformed: samples[0].time: \"yesterday\" is not a UTC time such as 2024-05-01T10:00:00.000Z"
    ),
    (
      "dashpilot/van-7/samples", String(repeating: " ", count: 4097),
      "too_large: the payload is 4097 bytes, over the bound of 4096 (MaximumPayload=)"
    ),
    (
      "elsewhere/van-7/samples", good,
      "unknown_schema: the topic elsewhere/van-7/samples is none the office subscribes to"
    ),
  ])
  func refusesBadInputSayingWhatWasWrong(topic: String, payload: String, expected: String) {
    #expect(Self.judge.judge(topic: topic, payload: Array(payload.utf8)) == .rejected(Self.rejection(expected)))
  }

  static func rejection(_ text: String) -> Rejection {
    let colon = text.firstIndex(of: ":")!
    return Rejection(
      Rejection.Code(rawValue: String(text[..<colon]))!, String(text[text.index(colon, offsetBy: 2)...]))
  }

  @Test func aPayloadKnownOnlyInPartIsTooLargeWithoutBeingRead() {
    let judgement = Self.judge.judge(topic: "dashpilot/van-7/samples", payload: Array("{".utf8), payloadSize: 9_000_000)
    #expect(
      judgement
        == .rejected(Rejection(.tooLarge, "the payload is 9000000 bytes, over the bound of 4096 (MaximumPayload=)")))
  }

  @Test func topicsNeedOneWholeLevelForTheVehicle() throws {
    #expect(throws: BoxTopics.Invalid.self) { try BoxTopics(pattern: "dashpilot/#") }
    #expect(throws: BoxTopics.Invalid.self) { try BoxTopics(pattern: "dash+/x") }
    #expect(throws: BoxTopics.Invalid.self) { try BoxTopics(pattern: "fleet/+/+") }
    let topics = try BoxTopics(pattern: "fleet/+/box")
    #expect(topics.match("fleet/v1/box/shift")?.vehicle == "v1")
    #expect(topics.match("fleet/v1/car/shift") == nil)
    #expect(
      topics.sharedFilters(group: "office")
        == ["samples", "shift", "session", "stop", "events", "status"].map { "$share/office/fleet/+/box/\($0)" })
  }
}
