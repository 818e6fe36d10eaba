import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Fleet commands across the car being off and the daemon being killed, all real: the
/// broker's persistent session keeps what is sent while the box is away, and the ledger in
/// the store's file keeps what the box did.
@Suite("fleet commands across stops and kills", .serialized, .requiresMosquitto, .requiresGPSD)
struct FleetCommandDurabilityTests {
  typealias Rig = FleetRig

  @Test("a command sent while the daemon is stopped runs when it is back; one that expired meanwhile is refused")
  func queuedWhileStopped() throws {
    let rig = try Rig("fleet-offline")
    defer { rig.stop() }
    let receiver = try GPSDPseudoReceiver(
      nmea: try DaemonSteadyDrive.write(fixes: 6_000, in: rig.directory), secondsPerLine: 0.02)
    defer { receiver.stop() }
    try receiver.startGPSD()
    receiver.startFeeding()
    let gpsd = "127.0.0.1:\(receiver.port)"
    // Once, so that the broker holds the box's persistent session and its subscription.
    #expect(try rig.startDaemon(gpsd: gpsd).stop() == 0)

    // The car is off: the dispatcher sends a shift start good until 2100, and a shift end
    // that expired in 2020 (by any clock, the box's or the receiver's).
    try rig.dispatcher.sendAndWait(Rig.command("offline-start", "shift.start", expiresAt: "2100-01-01T00:00:00Z"))
    try rig.dispatcher.sendAndWait(Rig.command("offline-end", "shift.end", expiresAt: "2020-01-01T00:00:00Z"))
    // The broker goes down too (it keeps both, persisted) and comes back only once the box
    // has a fix: without a synchronised clock, the receiver's time is how it tells expiry.
    rig.broker.stop()
    let daemon = try rig.startDaemon(gpsd: gpsd, waitForBroker: false)
    defer { daemon.stop() }
    let fixed = daemon.waitForStatus(timeout: 30) { $0.object("gpsd")?["last_fix_at"] is String }
    try #require(fixed != nil, "no fix: \(daemon.log)")
    try rig.broker.start()

    let started = try #require(rig.dispatcher.reply(to: "offline-start", timeout: 30), "\(daemon.log)")
    #expect(started.ok == true)
    #expect(started.result?["id"] as? Int == 1)
    let refused = try #require(rig.dispatcher.reply(to: "offline-end"), "\(daemon.log)")
    #expect(refused.errorCode == "expired")
    #expect(refused.errorMessage?.hasPrefix("shift.end expired at 2020-01-01T00:00:00.000Z, ") == true)
    #expect(refused.errorMessage?.hasSuffix(" s before the box could run it; not run") == true)
    try rig.roundTrip()
    #expect(rig.dispatcher.replies(to: "offline-start").count == 1)
    #expect(rig.dispatcher.replies(to: "offline-end").count == 1)
    // The start ran, the end did not: the shift is open.
    #expect(try DaemonDatabaseProbe.query(rig.database, "SELECT id, ended_at_ms IS NULL FROM shifts") == ["1|1"])
    #expect(try daemon.controlJSON(["status"]).object("shift")?["id"] as? Int == 1)
  }

  @Test(
    "SIGKILL between a command's effect and its reply: after the restart the reply arrives once, the effect happened once"
  )
  func killedBetweenEffectAndReply() throws {
    let rig = try Rig("fleet-sigkill")
    defer { rig.stop() }
    // The test seam kills the daemon (SIGKILL, from itself) as soon as a shift.end's answer
    // has committed, before anything can publish it.
    var daemon = try rig.startDaemon(environment: ["DASHPILOTD_TEST_KILL_AFTER_COMMAND": "shift.end"])
    defer { daemon.stop() }
    rig.send(Rig.command("kill-start", "shift.start"))
    #expect(rig.dispatcher.reply(to: "kill-start")?.ok == true)
    // Nothing else in flight, so nothing can be publishing when the end commits.
    let idle = daemon.waitForStatus(timeout: 20) { $0.object("uplink")?["outbox_depth"] as? Int == 0 }
    try #require(idle != nil, "\(daemon.log)")
    rig.send(Rig.command("kill-end", "shift.end"))
    try #require(daemon.waitForExit(timeout: 30) != nil, "dashpilotd was not killed: \(daemon.log)")
    #expect(daemon.process.terminationReason == .uncaughtSignal)
    #expect(daemon.process.terminationStatus == SIGKILL)
    try rig.dispatcher.probe()
    #expect(rig.dispatcher.replies(to: "kill-end").isEmpty)
    // The effect is in the store, with the answer recorded and queued beside it.
    let ended = try DaemonDatabaseProbe.query(rig.database, "SELECT id || ' ' || ended_at_ms FROM shifts")
    #expect(ended.count == 1)
    #expect(ended.first?.hasPrefix("1 ") == true && ended.first != "1 ")
    #expect(
      try DaemonDatabaseProbe.query(
        rig.database, "SELECT command, answered_at IS NOT NULL FROM uplink_commands WHERE id = 'kill-end'")
        == ["shift.end|1"])
    #expect(
      try DaemonDatabaseProbe.query(rig.database, "SELECT count(*) FROM uplink_outbox WHERE topic = 'reply'") == ["1"])

    // Restarted: the reply goes out once, the shift was ended once, and asking again gets
    // the same reply, not a second end.
    daemon = try rig.startDaemon()
    let reply = try #require(rig.dispatcher.reply(to: "kill-end", timeout: 30), "\(daemon.log)")
    #expect(reply.ok == true)
    #expect(reply.result?["id"] as? Int == 1)
    #expect(reply.result?["ended_at"] is String)
    try rig.roundTrip()
    #expect(rig.dispatcher.replies(to: "kill-end").count == 1)
    #expect(try DaemonDatabaseProbe.query(rig.database, "SELECT id || ' ' || ended_at_ms FROM shifts") == ended)
    rig.send(Rig.command("kill-end", "shift.end"))
    try rig.roundTrip()
    #expect(rig.dispatcher.replies(to: "kill-end").map(\.payload) == [reply.payload, reply.payload])
    #expect(try DaemonDatabaseProbe.query(rig.database, "SELECT id || ' ' || ended_at_ms FROM shifts") == ended)
    #expect(!daemon.log.contains("running again"))
  }

  @Test("100 commands, one after another: the command-to-reply latency through a loopback broker")
  func latency() throws {
    let rig = try Rig("fleet-latency")
    defer { rig.stop() }
    let daemon = try rig.startDaemon()
    defer { daemon.stop() }
    let figures = try FleetCommandLatency.measure(rig.dispatcher, count: 100)
    #expect(figures.latencies.count == 100)
    #expect(figures.outcomes == ["ok": 100])
    print(
      "fleet command latency through a loopback broker: median \(figures.medianMilliseconds) ms, worst "
        + "\(figures.worstMilliseconds) ms (100 status commands, each sent when the last was answered)")
  }
}
