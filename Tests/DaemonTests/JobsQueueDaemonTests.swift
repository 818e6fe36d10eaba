import Foundation
import TestSupport
import Testing

/// The jobs queue through a real `dashpilotd`'s socket, on a real SQLite file: the bound
/// refused with `queue_full` and nothing touched, cancelling, and the queue as it was after
/// a restart on the same file (the ledger in the store's file).
@Suite("the jobs queue on the socket, across a restart", .serialized)
struct JobsQueueDaemonTests {
  static func assign(_ client: RawSocketClient, _ id: String, request: Int) -> [String: Any]? {
    client.ask(
      #"{"v":1,"id":\#(request),"cmd":"job.assign","args":{"id":"\#(id)","name":"stop \#(id)","destination":{"lat":51.5,"lon":-0.12}}}"#
    )
  }

  static func error(_ answer: [String: Any]?) -> String? {
    (answer?["error"] as? [String: Any]).map { "\($0["code"] as? String ?? "?"): \($0["message"] as? String ?? "?")" }
  }

  @Test("200 jobs queue, the 201st is queue_full; a cancelled job leaves room; the queue survives a restart")
  func boundCancelRestart() throws {
    let directory = try TestPaths.temporaryDirectory("jobs-queue")
    defer { try? FileManager.default.removeItem(at: directory) }
    let database = directory.appendingPathComponent("dashpilot.sqlite").path
    let daemon = try DaemonUnderTest(databasePath: database)
    try daemon.waitUntilReady(timeout: 30)
    let client = try RawSocketClient(path: daemon.socketPath)
    for k in 1...200 {
      let answer = Self.assign(client, "J\(k)", request: k)
      guard answer?["ok"] as? Bool == true else {
        Issue.record("J\(k): \(answer ?? [:])")
        return
      }
    }
    #expect(
      Self.error(Self.assign(client, "J201", request: 201))
        == "queue_full: the queue holds 200 jobs not done, its bound; cancel one (job.cancel) before adding another")
    // Nothing touched: J201 was never recorded, so it is not found.
    #expect(
      Self.error(client.ask(#"{"v":1,"id":202,"cmd":"job.cancel","args":{"id":"J201"}}"#))
        == "not_found: no job J201 is queued")
    let cancelled = client.ask(#"{"v":1,"id":203,"cmd":"job.cancel","args":{"id":"J7"}}"#)
    #expect(((cancelled?["result"] as? [String: Any])?["job"] as? [String: Any])?["state"] as? String == "cancelled")
    // Cancelled again: nothing changes.
    let again = client.ask(#"{"v":1,"id":204,"cmd":"job.cancel","args":{"id":"J7"}}"#)
    #expect((again?["result"] as? [String: Any])?["changed"] as? Bool == false)
    // The id stays the cancelled job's: sent again it is answered as it stands, and another
    // job under it is a conflict.
    let resent = Self.assign(client, "J7", request: 205)?["result"] as? [String: Any]
    #expect(resent?["changed"] as? Bool == false)
    #expect((resent?["job"] as? [String: Any])?["state"] as? String == "cancelled")
    #expect(
      Self.error(
        client.ask(
          #"{"v":1,"id":207,"cmd":"job.assign","args":{"id":"J7","name":"other","destination":{"lat":51.5,"lon":-0.12}}}"#
        ))
        == #"conflict: job J7 was assigned before with other content ("stop J7", cancelled); a changed job needs a new id"#
    )
    #expect((Self.assign(client, "J201", request: 206)?["ok"] as? Bool) == true)
    _ = daemon.stop()

    let restarted = try DaemonUnderTest(databasePath: database)
    defer { _ = restarted.stop() }
    try restarted.waitUntilReady(timeout: 30)
    let list = try restarted.controlJSON(["jobs"])
    let queue = try #require(list["queue"] as? [[String: Any]])
    #expect(queue.count == 200)
    #expect(queue.first?["id"] as? String == "J1" && queue.last?["id"] as? String == "J201")
    #expect(!queue.contains { $0["id"] as? String == "J7" })
    #expect(Set(queue.map { $0["state"] as? String }) == ["queued"])
    #expect(list["shift"] is NSNull)
  }
}
