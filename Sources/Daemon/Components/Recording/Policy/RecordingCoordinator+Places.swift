import ControlProtocol
import DashPilotCore
import FoundationEssentials

// Entering and leaving places (`[Places] File=`): `PlaceTracker` is fed the samples capture
// keeps, moves and held samples alike, so a place is judged from the rows a shift's stops
// are read from; a fix capture refused (a reflection, a stale one) says nothing of where the
// vehicle is. One journal line and one event each.
extension RecordingCoordinator {
  /// A sample capture kept: the places it confirmed the vehicle left, then entered.
  mutating func placesKept(_ sample: RouteSample) -> [RecordingAction] {
    placeTracker.update(sample.coordinate, accuracy: sample.horizontalAccuracy, at: sample.timestamp).map { event in
      switch event {
      case let .entered(place, at):
        return .announce(
          EventReport(
            .placeEntered(.init(place: place.name, kind: place.kind.rawValue, fixTime: at)),
            "entered \(place.name) (\(place.kind.rawValue)) at \(Self.fixTime(at))", priority: .info))
      case let .left(place, at):
        return .announce(
          EventReport(
            .placeLeft(.init(place: place.name, kind: place.kind.rawValue, fixTime: at)),
            "left \(place.name) (\(place.kind.rawValue)) at \(Self.fixTime(at))", priority: .info))
      }
    }
  }

  private static func fixTime(_ date: Date) -> String { UTCTimestamp.string(date) ?? "?" }
}
