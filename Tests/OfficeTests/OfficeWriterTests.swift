import ControlProtocol
import DashPilotCore
import Foundation
import Office
import OfficeCore
import TestSupport
import Testing

/// The batch writer against a real PostgreSQL/PostGIS, fed what the box's own encoder
/// writes: every kind stored, a redelivery changes nothing, a sample sent again in a new
/// message is the same sample, any order and any cut into batches gives the same rows, and
/// an old month is made when a row needs it.
@Suite(.requiresPostGIS)
struct OfficeWriterTests {
  static let van = BoxPayloads("van-7")

  /// One shift of van-7 as the box would send it: 3 sample batches with a capture gap (a new
  /// session) between the second and third, the sessions, a stop, the job events, the shift.
  static func shiftMessages() throws -> [(String, [UInt8])] {
    let t0 = BoxPayloads.t0
    let first = BoxPayloads.route(count: 30, start: t0)
    let second = BoxPayloads.route(
      count: 30, start: t0 + 30,
      from: GeographicDistance.destination(
        from: first.last!.coordinate, bearing: 90, distance: 10))
    let third = BoxPayloads.route(
      count: 30, start: t0 + 400, session: "cs-2",
      from: GeographicDistance.destination(from: second.last!.coordinate, bearing: 90, distance: 500))
    let stop = WireStop(
      Stop(
        arrival: t0 + 59, departure: t0 + 400, start: .arrived,
        end: .beforeGap(
          RouteGap(
            kind: .sessionChanged(ended: CaptureSessionID("cs-1"), began: CaptureSessionID("cs-2")), from: t0 + 59,
            to: t0 + 400)),
        position: second.last!.coordinate, wander: 2.5, positions: 4))
    let job = WireJob(
      DeliveryJob(id: "A-1", name: "Flowers", destination: second.last!.coordinate), state: "visited", shift: 42,
      visit: WireJobVisit(
        arrival: t0 + 59, departure: t0 + 400, distanceMetres: 3, receiverReportedThroughout: false,
        withinWindow: nil, stopEnd: "before_gap"))
    let arrived = try event(
      #"{"event":{"fields":{"job":{"id":"A-1","lat":51.5,"lon":-0.1,"name":"Flowers","note":null,"radius_m":50,"shift":42,"state":"arrived","visit":null,"window_end":null,"window_start":null},"shift":42},"message":"arrived at job A-1","time":"2023-11-14T22:14:19.000Z","type":"job.arrived"},"v":1}"#
    )
    let distance = RouteDistance(metres: 1160, segments: 2, gaps: 1, usablePositions: 90, usesInferredContinuity: false)
    return [
      van.session("cs-1", phase: .start, at: t0, reason: "fixes_started", shift: 42, sequence: 1),
      van.samples(first, shift: 42, sequence: 2),
      van.samples(second, shift: 42, sequence: 3),
      van.event(arrived, shift: 42, sequence: 4),
      van.session("cs-1", phase: .end, at: t0 + 59, reason: "connection_lost", shift: 42, sequence: 5),
      van.session("cs-2", phase: .start, at: t0 + 400, reason: "fixes_started", shift: 42, sequence: 6),
      van.stop(stop, shift: 42, sequence: 7),
      van.samples(third, shift: 42, sequence: 8),
      van.shift(42, startedAt: t0, endedAt: t0 + 429, distance: distance, sequence: 9, jobs: [job]),
    ]
  }

  static func event(_ line: String) throws -> ControlEvent {
    guard case .event(let event) = try ServerLine.parse(Data(line.utf8)).get() else {
      throw TestProcessError("not an event line: \(line)")
    }
    return event
  }

  @Test func storesEveryKindOfAShift() throws {
    let database = try OfficeDatabase("writer_kinds")
    let writer = try database.writer()
    let batch = try Self.shiftMessages().map { BoxPayloads.inbound($0) }
    let outcome = try writer.write(batch)
    #expect(outcome.messages == 9 && outcome.duplicates == 0 && outcome.samples == 90 && outcome.rejectedCount == 0)
    #expect(try database.count("samples") == 90)
    #expect(try database.count("ledger") == 9)
    #expect(
      try database.psql("SELECT string_agg(capture_session || ':' || event, ' ' ORDER BY at, event DESC) FROM sessions")
        == "cs-1:start cs-1:end cs-2:start")
    #expect(
      try database.psql("SELECT state, visit_stop_end FROM (SELECT state, stop_end AS visit_stop_end FROM jobs) j")
        == "visited|before_gap")
    #expect(
      try database.psql("SELECT shift, metres, segments, gaps, partial, summary FROM shifts")
        == "42|1160|2|1|t|0.7 mi recorded · partial route")
    #expect(try database.psql("SELECT type, message FROM events") == "job.arrived|arrived at job A-1")
    #expect(try database.psql("SELECT start, \"end\", positions, wander_m FROM stops") == "arrived|before_gap|4|2.5")
  }

  @Test func aRedeliveryChangesNothing() throws {
    let database = try OfficeDatabase("writer_redelivery")
    let writer = try database.writer()
    let batch = try Self.shiftMessages().map { BoxPayloads.inbound($0) }
    _ = try writer.write(batch)
    let before = try database.contents()
    let again = try writer.write(batch)
    #expect(again.messages == 0 && again.duplicates == 9 && again.samples == 0 && again.duplicateSamples == 90)
    #expect(try database.contents() == before)
  }

  @Test func aSampleSentAgainInANewMessageIsTheSameSample() throws {
    let database = try OfficeDatabase("writer_resend")
    let writer = try database.writer()
    let route = BoxPayloads.route(count: 20)
    _ = try writer.write([BoxPayloads.inbound(Self.van.samples(route, shift: 42, sequence: 5))])
    // shift.resend publishes the shift's samples again as new messages (new keys).
    let resent = try writer.write([BoxPayloads.inbound(Self.van.samples(route, shift: 42, sequence: 90))])
    #expect(resent.messages == 1 && resent.samples == 0 && resent.duplicateSamples == 20)
    #expect(try database.count("samples") == 20)
    #expect(try database.psql("SELECT string_agg(key, ' ' ORDER BY sequence) FROM ledger") == "van-7/42/5 van-7/42/90")
  }

  @Test func anyOrderAndAnyBatchingGiveTheSameRows() throws {
    let messages = try Self.shiftMessages()
    let inOrder = try OfficeDatabase("writer_order_a")
    _ = try inOrder.writer().write(messages.map { BoxPayloads.inbound($0) })
    let expected = try inOrder.contents()
    var generator = SeededGenerator(seed: 39)
    for round in 0..<3 {
      let shuffled = try OfficeDatabase("writer_order_\(round)")
      let writer = try shuffled.writer()
      var rest = messages.shuffled(using: &generator)
      while !rest.isEmpty {
        let size = Int.random(in: 1...3, using: &generator)
        _ = try writer.write(rest.prefix(size).map { BoxPayloads.inbound($0) })
        rest.removeFirst(min(size, rest.count))
      }
      #expect(try shuffled.contents() == expected, "round \(round)")
    }
  }

  @Test func aMonthLongPastIsMadeWhenARowNeedsIt() throws {
    let database = try OfficeDatabase("writer_old_month")
    let writer = try database.writer()
    let old = Date(timeIntervalSince1970: 1_552_000_000)  // 2019-03-07
    _ = try writer.write([
      BoxPayloads.inbound(Self.van.samples(BoxPayloads.route(count: 3, start: old), shift: 3, sequence: 1))
    ])
    #expect(try database.psql("SELECT tableoid::regclass, count(*) FROM samples GROUP BY 1") == "samples_y2019m03|3")
    #expect(try database.psql("SELECT tableoid::regclass FROM ledger") == "ledger_y2019m03")
  }
}
