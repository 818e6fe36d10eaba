import Foundation
import Synchronization
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// A flood of fleet commands against a car that is recording, all real: a dispatcher
/// (mosquitto's own clients) sends 1,000 commands as fast as `mosquitto_pub -l` can while
/// a real gpsd reads a receiver on a pseudo-terminal into an open shift.
@Suite("a flood of fleet commands while recording", .serialized, .requiresMosquitto, .requiresGPSD)
struct FleetCommandFloodTests {
  typealias Rig = FleetRig

  /// The steady drive's fixes, one a second of receiver time from 10:00:00Z, fed ten a
  /// second as a 10 Hz receiver would (4 sentences each, 25 ms apart); the flood comes
  /// once a hundred have been.
  static let fixes = 400
  static let firstFixMilliseconds: Int64 = 1_714_557_600_000  // 2024-05-01T10:00:00Z

  @Test(
    "1,000 commands while recording: every fix is stored, past the burst and the rate each is answered busy, the socket answers"
  )
  func floodWhileRecording() throws {
    let rig = try Rig("fleet-flood")
    defer { rig.stop() }
    let receiver = try GPSDPseudoReceiver(
      nmea: try DaemonSteadyDrive.write(fixes: Self.fixes, in: rig.directory), secondsPerLine: 0.025)
    defer { receiver.stop() }
    try receiver.startGPSD()
    let daemon = try rig.startDaemon(gpsd: "127.0.0.1:\(receiver.port)")
    defer { daemon.stop() }
    // The shift is open before the first sentence is written: every fix belongs to it.
    #expect(try daemon.controlJSON(["shift", "start"])["id"] as? Int == 1)
    receiver.startFeeding()
    try #require(receiver.waitForProgress(100 * 4, timeout: 60))
    let recording = daemon.waitForStatus(timeout: 30) { $0.object("gpsd")?["last_fix_at"] is String }
    try #require(recording != nil, "no fix: \(daemon.log)")

    // The loop's own work, asked for over the control socket all through the flood: each
    // `status` is answered by the loop thread, so one that never came back is a loop that
    // stopped. The slowest answers, in the second before the flood and during it, are
    // printed, not judged (speed belongs in benches).
    let watching = Mutex(true)
    let answers = Mutex((asked: 0, answered: 0, slowest: 0.0, slowestBefore: 0.0))
    let flooding = Mutex(false)
    let watcher = Thread {
      while watching.withLock({ $0 }) {
        let asked = MosquittoDispatcher.now()
        let answer = (try? RawSocketClient(path: daemon.socketPath))?.ask(#"{"v":1,"id":1,"cmd":"status"}"#)
        let took = MosquittoDispatcher.now() - asked
        answers.withLock {
          $0.asked += 1
          if answer?["ok"] as? Bool == true { $0.answered += 1 }
          if flooding.withLock({ $0 }) {
            $0.slowest = max($0.slowest, took)
          } else {
            $0.slowestBefore = max($0.slowestBefore, took)
          }
        }
        usleep(20_000)
      }
    }
    watcher.start()
    usleep(1_000_000)

    let ids = (0..<1_000).map { "flood-\($0)" }
    let fedBefore = receiver.progress / 4
    flooding.withLock { $0 = true }
    let firstSent = MosquittoDispatcher.now()
    for id in ids { rig.dispatcher.send(Rig.command(id, "status")) }
    let allAnswered = rig.dispatcher.wait(timeout: 120) { received in
      let replied = Set(received.filter { $0.topic.hasSuffix("/reply") }.compactMap { $0.json["id"] as? String })
      return ids.allSatisfy(replied.contains)
    }
    let lastReply = rig.dispatcher.received.last { $0.topic.hasSuffix("/reply") }?.at ?? firstSent
    let fedAfter = receiver.progress / 4
    watching.withLock { $0 = false }
    while !watcher.isFinished { usleep(10_000) }
    try #require(allAnswered, "not every command was answered: \(daemon.log)")

    // Every command answered exactly once: ok within the rate, busy beyond it, nothing else.
    let replies = ids.map { rig.dispatcher.replies(to: $0) }
    #expect(replies.map(\.count) == Array(repeating: 1, count: ids.count))
    let outcomes = replies.compactMap(\.first).map { $0.ok == true ? "ok" : $0.errorCode ?? "unreadable" }
    let ok = outcomes.filter { $0 == "ok" }.count
    let busy = outcomes.filter { $0 == "busy" }.count
    #expect(ok + busy == ids.count, "other outcomes: \(Set(outcomes))")
    // The box takes a burst of 200, then ten a second: the flood spanned `span` seconds at most.
    let span = lastReply - firstSent
    #expect(ok >= 200 && ok <= 200 + 10 * Int(span.rounded(.up)), "ok \(ok) over \(span) s")
    let busyReply = try #require(replies.compactMap(\.first).first { $0.errorCode == "busy" })
    #expect(
      busyReply.errorMessage
        == "more than 10 commands a second after a burst of 200: this one was not run; send it again (with the same id) shortly",
      "\(busyReply.payload)")
    let watched = answers.withLock { $0 }
    #expect(watched.asked > 0 && watched.answered == watched.asked, "\(watched)")

    // Capture went on: once the receiver has said everything, the shift holds every fix
    // from the first it stored to the drive's last, one a second, in one capture session.
    try #require(receiver.waitForProgress(receiver.lineCount, timeout: 120))
    let lastFix = Self.firstFixMilliseconds + Int64(Self.fixes - 1) * 1_000
    var stored: [String] = []
    let deadline = Date(timeIntervalSinceNow: 30)
    repeat {
      stored = try DaemonDatabaseProbe.query(
        rig.database,
        "SELECT count(*) || ' ' || min(fix_time_ms) || ' ' || max(fix_time_ms) || ' ' || count(DISTINCT capture_session) FROM samples WHERE shift_id = 1"
      )
      if stored.first?.split(separator: " ").dropFirst(2).first == Substring(String(lastFix)) { break }
      usleep(200_000)
    } while Date() < deadline
    let figures = try #require(stored.first?.split(separator: " ").compactMap { Int64($0) }, "\(stored)")
    try #require(figures.count == 4, "\(stored)")
    let (count, first, last, sessions) = (figures[0], figures[1], figures[2], figures[3])
    #expect(last == lastFix, "the last stored fix: \(last)")
    let times = Set(
      try DaemonDatabaseProbe.query(rig.database, "SELECT fix_time_ms FROM samples WHERE shift_id = 1").compactMap {
        Int64($0)
      })
    let missing = (0..<Int64(Self.fixes)).filter { !times.contains(Self.firstFixMilliseconds + $0 * 1_000) }
    #expect(
      count == (last - first) / 1_000 + 1,
      "\(count) rows from \(first) to \(last): fixes missing \(missing); the flood came while fixes \(fedBefore)-\(fedAfter) were fed"
    )
    #expect(sessions == 1)
    let capture = try daemon.controlJSON(["status"]).object("capture")
    #expect(capture?["accepted"] as? Int == Int(count), "\(capture ?? [:])")
    #expect(capture?["rejected"] as? [String: Int] == [:], "\(capture ?? [:])")
    #expect(daemon.process.isRunning)

    // Status counts the flood, and its line says what was refused.
    let expected = ids.count
    let counted = daemon.waitForStatus(timeout: 10) { $0.object("uplink.commands")?["received"] as? Int == expected }
    let commands = try #require(counted?.object("uplink.commands"), "\(daemon.log)")
    #expect(commands["succeeded"] as? Int == ok)
    #expect(commands["refused"] as? [String: Int] == ["busy": busy])
    let line = try daemon.control(["status"]).standardOutput.split(separator: "\n").first { $0.hasPrefix("commands") }
    #expect(line?.hasPrefix("commands   on · last ") == true && line?.contains(" (flood-") == true, "\(line ?? "none")")
    #expect(line?.hasSuffix(" · refused \(busy) (busy \(busy))") == true, "\(line ?? "no commands line")")

    print(
      "fleet flood: 1000 commands sent in \(((lastReply - firstSent) * 10).rounded() / 10) s (first sent to last "
        + "reply): \(ok) ok, \(busy) busy; fixes fed \(Self.fixes), stored \(count) (from "
        + "\((first - Self.firstFixMilliseconds) / 1_000 + 1) to \(Self.fixes), none missing); control socket "
        + "answered \(watched.answered) of \(watched.asked) status requests, the slowest "
        + "\((watched.slowestBefore * 10_000).rounded() / 10) ms in the second before the flood and "
        + "\((watched.slowest * 10_000).rounded() / 10) ms during it")
  }
}
