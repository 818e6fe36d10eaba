import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// An office dispatching a car, all real: a dispatcher (mosquitto's own clients) sends the
/// car's `dashpilotd` a shift start and a destination through mosquitto on loopback; the
/// car, a real gpsd that gpsfake plays the generated grid-dispatch drive into, is routed by
/// a real Valhalla over the generated grid, leaves the route, is rerouted and arrives; the
/// dispatcher hears each of those as an event, in order, and sees guidance in `live`.
@Suite(
  "a dispatcher navigates a car over MQTT", .serialized, .requiresMosquitto, .requiresValhalla, .requiresGPSFake)
struct FleetDispatchDriveTests {
  typealias Rig = FleetRig

  @Test(
    "navigate from the office: the reply carries the route; off_route, rerouted and arrived reach the office in order")
  func dispatcherNavigatesTheCar() throws {
    let server = try GuidanceEngines.valhalla.get()
    let drive = try GridDrive("grid-dispatch")
    #expect(drive.nodes == server.grid.nodes, "the drive was generated for another grid")
    let rig = try Rig("fleet-drive")
    defer { rig.stop() }
    let fake = try GPSDFake(log: drive.nmea, cycle: 0.05)
    defer { fake.stop() }
    let daemon = try rig.startDaemon(
      extra: ["LiveInterval=1"], sections: "[Routing]\nURL=\(server.baseURL)\n", gpsd: "127.0.0.1:\(fake.port)")
    defer { daemon.stop() }

    // The car stands for 40 s of the drive (6 s here): the office starts the shift, then
    // sends the destination, again under a new id while the car has no position yet.
    rig.send(Rig.command("office-shift", "shift.start"))
    #expect(rig.dispatcher.reply(to: "office-shift")?.ok == true, "\(daemon.log)")
    let destination = try drive.coordinate("navigate_to")
    var answer: MosquittoDispatcher.Arrival?
    for attempt in 1...40 {
      let id = "office-navigate-\(attempt)"
      rig.send(
        Rig.command(
          id, "navigate", args: #"{"destination":{"lat":\#(destination.latitude),"lon":\#(destination.longitude)}}"#))
      answer = rig.dispatcher.reply(to: id)
      if answer?.errorCode != "unavailable" { break }
    }
    let planned = try #require(answer?.result, "navigate: \(answer?.payload ?? "no reply") \(daemon.log)")
    #expect(planned["source"] as? String == "valhalla")
    #expect(planned["mode"] as? String == "driving")
    // From 50 m east of row 0, column 0 to row 0, column 5: straight along Row 0 Street.
    let length = try #require(planned["length_m"] as? Double)
    #expect(abs(length - 950) < 3, "route length \(length)")

    let arrived = rig.dispatcher.wait(timeout: 120) { rig.dispatcher.eventTypes(in: $0).contains("guidance.arrived") }
    try #require(arrived, "no arrival: \(rig.dispatcher.eventTypes) \(daemon.log)")
    try rig.roundTrip()
    #expect(
      rig.dispatcher.eventTypes == [
        "shift.started", "guidance.joined", "guidance.off_route", "guidance.reroute_requested", "guidance.rerouted",
        "guidance.joined", "guidance.arrived",
      ])
    let events = rig.dispatcher.received.filter { $0.topic == "\(Rig.prefix)/events" }.map(\.json)
    #expect(events.allSatisfy { $0["schema"] as? String == "dashpilot.event/1" && $0["shift"] as? Int == 1 })
    let sequences = events.compactMap { $0["sequence"] as? Int }
    #expect(sequences == sequences.sorted() && Set(sequences).count == events.count)
    let fields = events.map { ($0["event"] as? [String: Any])?["fields"] as? [String: Any] ?? [:] }
    #expect((fields[2]["lateral_m"] as? Double ?? 0) > 45, "\(fields[2])")
    #expect(fields[4]["latency_ms"] is Double)
    #expect(fields[4]["request"] as? String == "reroute-1")

    // `live` said where guidance stood: following with the distance to go, then arrived.
    let live = rig.dispatcher.received.filter { $0.topic == "\(Rig.prefix)/live" }.compactMap {
      $0.json["guidance"] as? [String: Any]
    }
    #expect(live.contains { $0["phase"] as? String == "following" && ($0["distance_remaining_m"] as? Double ?? 0) > 0 })
    let settled = rig.dispatcher.wait(timeout: 10) { received in
      received.last { $0.topic == "\(Rig.prefix)/live" }.flatMap { $0.json["guidance"] as? [String: Any] }?["phase"]
        as? String == "arrived"
    }
    #expect(
      settled,
      "the last live message: \(rig.dispatcher.received.last { $0.topic.hasSuffix("/live") }?.payload ?? "none")")
    let status = try daemon.controlJSON(["status"])
    #expect(status.object("guidance")?["phase"] as? String == "arrived")
  }
}
