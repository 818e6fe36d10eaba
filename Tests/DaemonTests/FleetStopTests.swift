import DashPilotCore
import Foundation
import TestSupport
import Testing

/// The `stop` message, all real: `dashpilotd` fed `DaemonStopsDrive` by a real gpsd, with
/// the depot of `PlacesDaemonTests` around its 5-minute stop, tells the stop as it ends
/// (`stop.ended` on `events`) and a real mosquitto carries it to the office on
/// `PREFIX/stop`: the very stop `shift show` lists afterwards, read by the same policy from
/// the same rows. The 60 s red light is no stop; the stand the drive ends in is told when the
/// shift is ended by hand, cut by its end.
@Suite("the stop message, against a real mosquitto", .serialized, .requiresMosquitto, .requiresGPSD)
struct FleetStopTests {
  @Test("the depot stop is told once as it ends, equal to shift show's, named by the depot")
  func stopMessageIsShiftShowsStop() throws {
    let rig = try FleetRig("fleet-stop")
    defer { rig.stop() }
    let places = try PlacesDaemonTests.writePlaces(in: rig.directory)
    let receiver = try GPSDPseudoReceiver(
      nmea: try DaemonStopsDrive.write(in: rig.directory), secondsPerLine: 0.005)
    defer { receiver.stop() }
    try receiver.startGPSD()
    let daemon = try rig.startDaemon(
      accept: false, sections: "[Places]\nFile=\(places)\n", gpsd: "127.0.0.1:\(receiver.port)")
    defer { daemon.stop() }
    #expect(daemon.waitForStatus(timeout: 20) { $0.object("gpsd")?["connected"] as? Bool == true } != nil)
    #expect(try daemon.control(["shift", "start"]).status == 0)
    let events = try EventFollower(socketPath: daemon.socketPath)
    receiver.startFeeding()

    let recorded = daemon.waitUntilRecorded(through: DaemonStopsDrive.lastFix)
    try #require(recorded != nil, "the drive was not recorded: \(daemon.log)")
    let told = try #require(events.wait(for: "stop.ended", timeout: 30), "\(daemon.log)")
    // Queued with the event; the office hears it once the broker has it.
    let stopTopic = "\(FleetRig.prefix)/stop"
    #expect(rig.dispatcher.wait(timeout: 30) { $0.contains { $0.topic == stopTopic } }, "\(daemon.log)")

    let messages = rig.dispatcher.received.filter { $0.topic == stopTopic }
    #expect(messages.count == 1, "\(messages.map(\.payload))")
    let message = try #require(messages.first)
    #expect(message.json["schema"] as? String == "dashpilot.stop/1")
    #expect(message.json["vehicle"] as? String == FleetRig.vehicle)
    #expect(message.json["shift"] as? Int == 1)
    let sent = try #require(message.json["stop"] as? [String: Any], "\(message.payload)")
    // Arrived at its last move (10:01:59), left at the first its speeds carry (10:07:01).
    #expect(sent["arrival"] as? String == PlacesDaemonTests.at(119))
    #expect(sent["departure"] as? String == PlacesDaemonTests.at(421))
    #expect(sent["duration_s"] as? Double == 302)
    #expect(sent["start"] as? String == "arrived" && sent["end"] as? String == "departed")
    #expect(sent["cut"] is NSNull)
    #expect(sent["place"] as? String == "Depot")

    // The event on the socket carries the same stop and the shift.
    #expect(told.fields["shift"] as? Int == 1)
    #expect(NSDictionary(dictionary: told.fields.filter { $0.key != "shift" }).isEqual(to: sent), "\(told.fields)")
    #expect(
      told.message
        == "stopped 5 min at Depot, from \(PlacesDaemonTests.at(119)) to \(PlacesDaemonTests.at(421))")

    // shift show, read from the stored rows afterwards: its first stop is the message's, field
    // for field; its last is the stand going on, which no message told.
    let shown = try #require(try daemon.controlJSON(["shift", "show", "1"])["stops"] as? [[String: Any]])
    #expect(shown.count == 2)
    #expect(NSDictionary(dictionary: shown[0]).isEqual(to: sent), "\(shown[0])\n\(sent)")
    #expect(shown.last?["end"] as? String == "ongoing")
    #expect(events.all("stop.ended").count == 1)

    // Ended by hand while standing: the stand is told, cut by the shift's end, before the
    // shift's end is; it is shift show's last stop of the ended shift.
    #expect(try daemon.control(["shift", "end"]).status == 0)
    let cut = try #require(events.wait(for: "shift.ended", timeout: 30), "\(daemon.log)")
    #expect(
      events.events.map(\.type).filter { $0 == "stop.ended" || $0 == "shift.ended" }
        == ["stop.ended", "stop.ended", "shift.ended"], "\(cut)")
    #expect(rig.dispatcher.wait(timeout: 30) { $0.filter { $0.topic == stopTopic }.count == 2 }, "\(daemon.log)")
    let last = try #require(
      rig.dispatcher.received.filter { $0.topic == stopTopic }.last?.json["stop"] as? [String: Any])
    #expect(last["arrival"] as? String == PlacesDaemonTests.at(1019))
    #expect(last["end"] as? String == "shift_ended" && last["cut"] as? String == "still stopped when the shift ended")
    let ended = try #require(try daemon.controlJSON(["shift", "show", "1"])["stops"] as? [[String: Any]])
    #expect(ended.count == 2)
    #expect(NSDictionary(dictionary: ended[0]).isEqual(to: sent))
    #expect(NSDictionary(dictionary: ended[1]).isEqual(to: last), "\(ended[1])\n\(last)")
  }
}
