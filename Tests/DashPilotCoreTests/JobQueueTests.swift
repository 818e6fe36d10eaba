import DashPilotCore
import Foundation
import Testing

/// The jobs rule on stops read by the stop policy from rows on `StopRows`' street: a stop
/// within a job's radius arrives it and, when it ends, visits it; driving through, or a red
/// light shorter than a stop, is no visit; what the shift's end finds unreached is told so.
@Suite struct JobQueueTests {
  /// Driving 0-20 s (to 200 m), standing 20-230 s, driving on to 2,000 m (past 1,000 m at
  /// 310 s), standing 60 s at 2,000 m (a red light), driving on.
  static func day() -> StopRows {
    var rows = StopRows()
    let depot = rows.drive(from: 0, to: 20, north: 0)
    rows.hold(from: 80, until: 230, north: depot, wander: 3)
    let light = rows.drive(from: 230, to: 410, north: depot + 6)
    rows.hold(from: 440, until: 470, north: light)
    rows.drive(from: 470, to: 480, north: light + 6)
    return rows
  }

  static func job(_ id: String, north: Double, east: Double = 0, radius: Double = DeliveryJob.defaultRadius)
    -> DeliveryJob
  {
    DeliveryJob(id: id, name: "job \(id)", destination: StopRows.place(north: north, east: east), radius: radius)
  }

  /// The stop as it is while it goes on at `t` (what `stop.started` reads), and as it ended.
  static func stops(_ rows: StopRows, now t: Double) -> [Stop] {
    StopPolicy().stops(in: rows.rows.filter { $0.timestamp <= StopRows.time(t) }, now: StopRows.time(t))
  }

  static func names(_ outcomes: [JobOutcome]) -> [String] {
    outcomes.map {
      switch $0 {
      case .arrived(let job, _): "arrived \(job.id)"
      case .visited(let job, _): "visited \(job.id)"
      case .notReached(let job): "not reached \(job.id)"
      }
    }
  }

  @Test("one visited, one driven through, one never reached: exactly those outcomes, in order")
  func visitedDrivenThroughNeverReached() throws {
    var queue = JobQueue()
    // 30 m east of the stop: within 50 m. The drive-through is on the street at 1,000 m.
    #expect(try queue.assign(Self.job("A", north: 200, east: 30)))
    #expect(try queue.assign(Self.job("B", north: 1_000)))
    #expect(try queue.assign(Self.job("C", north: 5_000)))
    let rows = Self.day()
    #expect(queue.next?.id == "A")

    let standing = try #require(Self.stops(rows, now: 200).last)
    #expect(standing.end == .ongoing)
    let arrived = queue.stopStarted(standing)
    #expect(Self.names(arrived) == ["arrived A"])
    guard case .arrived(_, let visit) = try #require(arrived.first) else { return }
    #expect(visit.stop.arrival == StopRows.time(20))
    // The stop stands 3 m east of the street (its median held sample), the job 30 m east.
    #expect(abs(visit.distance - 27) < 0.05)
    #expect(visit.receiverReportedThroughout)
    #expect(visit.withinWindow == nil)
    #expect(queue.next?.id == "B")

    let all = StopPolicy().stops(in: rows.rows)
    // The red light (30 s of held rows within 60 s) is no stop.
    #expect(all.count == 1)
    let visited = queue.stopEnded(try #require(all.first))
    #expect(Self.names(visited) == ["visited A"])
    guard case .visited(_, let evidence) = try #require(visited.first) else { return }
    #expect(evidence.stop.departure == StopRows.time(230))
    #expect(evidence.stop.duration == 210)
    #expect(queue.entries.map(\.job.id) == ["B", "C"])

    #expect(Self.names(queue.shiftEnded()) == ["not reached B", "not reached C"])
    #expect(queue.entries.isEmpty)
  }

  @Test("a stop outside the radius arrives nothing; the radius is the job's")
  func radius() throws {
    let stop = try #require(StopPolicy().stops(in: Self.day().rows).first)
    var narrow = JobQueue()
    _ = try narrow.assign(Self.job("A", north: 200, east: 30, radius: 25))
    #expect(narrow.stopStarted(stop).isEmpty)
    #expect(narrow.stopEnded(stop).isEmpty)
    var wide = JobQueue()
    _ = try wide.assign(Self.job("A", north: 200, east: 30, radius: 35))
    #expect(Self.names(wide.stopEnded(stop)) == ["arrived A", "visited A"])
  }

  @Test("the window: an arrival within it, or not")
  func window() throws {
    let stop = try #require(StopPolicy().stops(in: Self.day().rows).first)
    var job = Self.job("A", north: 200)
    job.window = DateInterval(start: StopRows.time(-600), end: StopRows.time(10))
    var late = JobQueue()
    _ = try late.assign(job)
    guard case .arrived(_, let visit)? = late.stopStarted(stop).first else { throw JobTestFailure() }
    #expect(visit.withinWindow == false)
    job.window = DateInterval(start: StopRows.time(-600), end: StopRows.time(20))
    var onTime = JobQueue()
    _ = try onTime.assign(job)
    guard case .arrived(_, let kept)? = onTime.stopStarted(stop).first else { throw JobTestFailure() }
    #expect(kept.withinWindow == true)
  }

  @Test("the same job twice changes nothing; another under its id, or past the bound, is refused")
  func refusals() throws {
    var queue = JobQueue()
    let job = Self.job("A", north: 200)
    #expect(try queue.assign(job))
    #expect(try queue.assign(job) == false)
    var other = job
    other.name = "another"
    #expect(throws: JobRefusal.conflict(existing: job)) { try queue.assign(other) }
    for k in 1..<JobQueue.bound { _ = try queue.assign(Self.job("J\(k)", north: Double(k))) }
    #expect(queue.entries.count == JobQueue.bound)
    #expect(throws: JobRefusal.full(bound: JobQueue.bound)) { try queue.assign(Self.job("one more", north: 0)) }
    #expect(queue.entries.count == JobQueue.bound)
    #expect(queue.cancel(id: "A")?.job == job)
    #expect(queue.cancel(id: "A") == nil)
    #expect(queue.entries.count == JobQueue.bound - 1)
  }

  @Test("a stop that began after a gap is evidence only in part")
  func afterGap() throws {
    var rows = StopRows()
    rows.drive(from: 0, to: 20, north: 0)
    // Nothing from 21 s to 400 s (past the continuity limit), then standing at 200 m.
    rows.session = CaptureSessionID("s2")
    rows.hold(from: 400, until: 640, north: 200)
    rows.drive(from: 640, to: 650, north: 206)
    let stop = try #require(StopPolicy().stops(in: rows.rows).first)
    var queue = JobQueue()
    _ = try queue.assign(Self.job("A", north: 200))
    let outcomes = queue.stopEnded(stop)
    #expect(Self.names(outcomes) == ["arrived A", "visited A"])
    guard case .visited(_, let visit)? = outcomes.last else { throw JobTestFailure() }
    #expect(visit.receiverReportedThroughout == false)
  }

  @Test("arrived but the shift ended with no stop's end told: visited with the stop as last seen")
  func arrivedAtShiftEnd() throws {
    var queue = JobQueue()
    _ = try queue.assign(Self.job("A", north: 200))
    let standing = try #require(Self.stops(Self.day(), now: 200).last)
    _ = queue.stopStarted(standing)
    #expect(Self.names(queue.shiftEnded()) == ["visited A"])
  }
}

struct JobTestFailure: Error {}
