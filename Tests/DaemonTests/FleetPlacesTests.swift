import Foundation
import TestSupport
import Testing

/// Places and the fleet, all real: a dispatcher sends `places.load` through a real
/// mosquitto to `dashpilotd` (which takes it because `AllowedCommands=` lists it), and hears
/// the car enter and leave the place on `PREFIX/events` while a real gpsd feeds the drive.
@Suite("places over MQTT, against a real mosquitto", .serialized, .requiresMosquitto, .requiresGPSD)
struct FleetPlacesTests {
  @Test("places.load is refused or taken by its reply; the place loaded is entered and left on the events topic")
  func placesLoadAndEvents() throws {
    let rig = try FleetRig("fleet-places")
    defer { rig.stop() }
    let places = try PlacesDaemonTests.writePlaces(in: rig.directory)
    let receiver = try GPSDPseudoReceiver(
      nmea: try DaemonStopsDrive.write(in: rig.directory), secondsPerLine: 0.005)
    defer { receiver.stop() }
    try receiver.startGPSD()
    let daemon = try rig.startDaemon(
      extra: ["AllowedCommands=status shift.start places.load"], sections: "[Places]\nFile=\(places)\n",
      gpsd: "127.0.0.1:\(receiver.port)")
    defer { daemon.stop() }

    rig.send(FleetRig.command("office-places-1", "places.load", args: #"{"geojson":{"type":"Feature"}}"#))
    let refused = try #require(rig.dispatcher.reply(to: "office-places-1"), "\(daemon.log)")
    #expect(refused.json["ok"] as? Bool == false)
    #expect(
      (refused.json["error"] as? [String: Any])?["message"] as? String
        == #"places.load: is not a GeoJSON FeatureCollection of places (its type is "Feature"); "#
        + "the places were not changed")

    // The depot alone, as its text: the reply names it, and the drive enters and leaves it.
    let depot =
      #"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Point","coordinates":"#
      + "[-0.12,\(PlacesDaemonTests.depotCentre.latitude)]},"
      + #""properties":{"name":"Depot","kind":"depot","radius_m":105}}]}"#
    let text = String(decoding: try JSONSerialization.data(withJSONObject: ["geojson": depot]), as: UTF8.self)
    rig.send(FleetRig.command("office-places-2", "places.load", args: text))
    let taken = try #require(rig.dispatcher.reply(to: "office-places-2"), "\(daemon.log)")
    #expect(taken.json["ok"] as? Bool == true, "\(taken.payload)")
    #expect((taken.json["result"] as? [String: Any])?["places"] as? [String] == ["Depot"])
    #expect(try String(contentsOfFile: places, encoding: .utf8) == depot)

    rig.send(FleetRig.command("office-start-3", "shift.start"))
    #expect(rig.dispatcher.reply(to: "office-start-3")?.json["ok"] as? Bool == true)
    receiver.startFeeding()
    let heard = rig.dispatcher.wait(timeout: 120) { rig.dispatcher.eventTypes(in: $0).contains("place.left") }
    #expect(heard, "\(rig.dispatcher.eventTypes)\n\(daemon.log)")
    let crossings = rig.dispatcher.received.filter { $0.topic == "\(FleetRig.prefix)/events" }.compactMap {
      $0.json["event"] as? [String: Any]
    }.filter { ($0["type"] as? String)?.hasPrefix("place.") == true }
    #expect(crossings.map { $0["type"] as? String } == ["place.entered", "place.left"])
    #expect(
      crossings.map { ($0["fields"] as? [String: Any])?["fix_time"] as? String }
        == [PlacesDaemonTests.at(109), PlacesDaemonTests.at(432)])
  }
}
