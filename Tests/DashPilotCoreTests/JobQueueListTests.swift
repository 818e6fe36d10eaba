import DashPilotCore
import Foundation
import Testing

/// A list of jobs (a day's manifest) given to the queue at once: queued in its order, all or
/// none; a job sent before as it is changes nothing; another under a used id, or a list
/// past the bound, refuses the whole list with every conflict named.
@Suite struct JobQueueListTests {
  static func job(_ id: String, name: String? = nil, north: Double = 0) -> DeliveryJob {
    DeliveryJob(id: id, name: name ?? "job \(id)", destination: StopRows.place(north: north, east: 0))
  }

  @Test("queued in the list's order after the queue's own; the same jobs again change nothing")
  func order() throws {
    var queue = JobQueue()
    #expect(try queue.assign(Self.job("first")))
    let day = (1...150).map { Self.job("D-\($0)", north: Double($0) * 300) }
    #expect(try queue.assign(all: day) == Array(repeating: true, count: 150))
    #expect(queue.entries.map(\.job.id) == ["first"] + day.map(\.id))
    // The manifest sent again (a retry): nothing changes, nothing is refused.
    #expect(try queue.assign(all: day) == Array(repeating: false, count: 150))
    #expect(queue.entries.count == 151)
    #expect(queue.next?.id == "first")
  }

  @Test("a job known outside the queue, or given twice alike, changes nothing; the rest are queued")
  func sentBefore() throws {
    var queue = JobQueue()
    let visited = Self.job("V")
    let list = [Self.job("A"), visited, Self.job("A"), Self.job("B")]
    #expect(try queue.assign(all: list) { $0 == "V" ? visited : nil } == [true, false, false, true])
    #expect(queue.entries.map(\.job.id) == ["A", "B"])
  }

  @Test("every job under a used id with other content is named, and nothing is queued")
  func conflicts() throws {
    var queue = JobQueue()
    #expect(try queue.assign(Self.job("Q", name: "queued")))
    let done = Self.job("V", name: "visited")
    let list = [
      Self.job("A"), Self.job("Q", name: "changed"), Self.job("V", name: "changed too"), Self.job("A", name: "other A"),
    ]
    #expect(
      throws: JobListRefusal.conflicts([
        JobConflict(index: 1, job: list[1], existing: Self.job("Q", name: "queued")),
        JobConflict(index: 2, job: list[2], existing: done),
        JobConflict(index: 3, job: list[3], existing: list[0], earlierIndex: 0),
      ])
    ) {
      try queue.assign(all: list) { $0 == "V" ? done : nil }
    }
    #expect(queue.entries.map(\.job.id) == ["Q"])
  }

  @Test("a list that would pass the bound is refused whole; one that fills it exactly is queued")
  func bound() throws {
    var queue = JobQueue()
    _ = try queue.assign(all: (0..<150).map { Self.job("D-\($0)") })
    let more = (0..<51).map { Self.job("E-\($0)") }
    #expect(throws: JobListRefusal.full(bound: 200, queued: 150, adding: 51)) { try queue.assign(all: more) }
    #expect(queue.entries.count == 150)
    // Jobs already queued do not count again: 150 known and 50 new fill it exactly.
    let filling = (0..<150).map { Self.job("D-\($0)") } + more.prefix(50)
    #expect(try queue.assign(all: filling).filter { $0 }.count == 50)
    #expect(queue.entries.count == 200)
  }
}
