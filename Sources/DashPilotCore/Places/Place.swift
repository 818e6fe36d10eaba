import FoundationEssentials

/// A named point or area a fleet cares about (a depot, a customer's yard, a driver's home),
/// from the places file (`PlacesFile`). A stop inside one is named by it; a `private` one
/// is where no position is recorded.
public struct Place: Sendable, Hashable {
  /// What the place is to the fleet. A closed list, so that a typo in `private` is an error
  /// at start-up, never a driver's home recorded.
  public enum Kind: String, Sendable, Hashable, CaseIterable {
    case depot
    case customer
    case fuel
    case rest
    /// A driver's home, say: no position is recorded inside it.
    case `private`
    case other
  }

  public var name: String
  public var kind: Kind
  public var area: PlaceArea

  public init(name: String, kind: Kind, area: PlaceArea) {
    self.name = name
    self.kind = kind
    self.area = area
  }

  public var isPrivate: Bool { kind == .private }
}

extension Collection where Element == Place {
  /// The place `point` lies in: the smallest of those that contain it (a customer's yard
  /// inside an industrial estate is named by the yard), nil when none does.
  public func place(containing point: GeoCoordinate) -> Place? {
    var best: (place: Place, size: Double)?
    for place in self where place.area.contains(point) {
      let size = place.area.squareMetres
      if best.map({ size < $0.size }) ?? true { best = (place, size) }
    }
    return best?.place
  }
}

extension Stop {
  /// The place that names the stop: the smallest of `places` its position (the median of
  /// the positions kept while standing) lies in; nil when none does. The one rule, for
  /// `shift show` and `replay --stops` alike.
  public func place(in places: some Collection<Place>) -> Place? {
    places.place(containing: position)
  }
}
