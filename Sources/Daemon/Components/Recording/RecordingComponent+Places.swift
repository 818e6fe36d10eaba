import Capture
import ControlProtocol
import DashPilotCore
import FoundationEssentials

// `places.load`: the fleet (or a person at the socket) replaces the places file. The text
// is read by the places file's own reader, so what is refused is refused with the same
// words as at start-up; it is written over the configured file atomically, so the next
// start reads it, and takes effect at once: the stops `shift show` names, the places
// entered and left (a new tracker: the place the vehicle stands in is entered again once
// its fixes confirm it), and `[Shift] EndAtPlace=`.
extension RecordingComponent {
  func loadPlaces(_ arguments: PlacesLoadArguments, _ responder: Responder) {
    let bytes = Array(arguments.text.utf8)
    let loaded: [Place]
    do {
      loaded = try PlacesFile.places(from: bytes, file: "places.load")
    } catch {
      return responder.fail(.badArguments, "\(error); the places were not changed")
    }
    var endPlace: Place?
    if let name = configuration.endAtPlace {
      guard let place = loaded.first(where: { $0.name == name }) else {
        return responder.fail(
          .badArguments,
          "places.load: no place is named \"\(name)\", which [Shift] EndAtPlace= names; the places were not changed")
      }
      endPlace = place
    }
    let path = configuration.placesFile
    do {
      try PlacesFileWriter.write(bytes, to: path)
    } catch {
      return responder.fail(.failed, "places.load: \(error); the places were not changed")
    }
    places = loaded
    coordinator.placeTracker = PlaceTracker(places: loaded, configuration: coordinator.placeTracker.configuration)
    coordinator.endPlace = endPlace.map { ($0.name, configuration.shiftPolicy.endAfterStopAtPlace) }
    capture?.recorder?.replaceEndPlace(endPlace)
    capture?.replacePlaces(loaded)
    context?.logger.notice("places: \(loaded.count) loaded into \(path) (places.load), in effect now")
    responder.succeed(PlacesLoadResult(file: path, places: loaded.map(\.name)))
  }
}
