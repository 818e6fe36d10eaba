import FoundationEssentials

/// Where capture records nothing: the places of kind `private` (a driver's home). A fix
/// inside one is withheld before it is judged, and so is every fix after it until one lies
/// `leaveMargin` beyond the place: a position on the border never flaps in and out, and
/// none inside is ever stored. The time withheld is a gap in capture ("private place"),
/// never counted, never drawn. Pure: the positions are passed in.
public struct PrivatePlaceGuard: Sendable, Hashable {
  /// How far beyond the place a fix must lie before capture records again: the same margin
  /// `PlaceTracker` leaves a place by.
  public static let leaveMargin: Double = 20

  public private(set) var places: [Place]
  /// The private place the last position lay in (or within the margin of, once inside).
  public private(set) var withholdingFor: Place?

  public init(places: [Place]) {
    self.places = places.filter(\.isPrivate)
  }

  /// Whether the fix at `position` must not be recorded.
  public mutating func withholds(_ position: GeoCoordinate) -> Bool {
    if let place = withholdingFor, place.area.signedDistance(to: position) <= Self.leaveMargin { return true }
    withholdingFor = places.first { $0.area.contains(position) }
    return withholdingFor != nil
  }
}
