/// `places.load`: the places file written and the places now in effect, by name in the
/// file's order.
public struct PlacesLoadResult: Sendable, Hashable, Codable {
  public var file: String
  public var places: [String]

  public init(file: String, places: [String]) {
    self.file = file
    self.places = places
  }
}
