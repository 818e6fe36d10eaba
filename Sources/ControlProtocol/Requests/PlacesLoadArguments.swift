/// `places.load`: a new places file, as the text of its GeoJSON FeatureCollection (`args.geojson`,
/// an object or its text). The daemon reads it with the places file's own reader
/// (`PlacesFile`), so a file the office sends is judged as one on the box is; the parser checks
/// only its kind and size.
public struct PlacesLoadArguments: Sendable, Hashable {
  public var text: String

  public init(text: String) { self.text = text }

  /// The most bytes of places text: a fleet command's payload limit (on the socket a line's
  /// 64 KiB answers first).
  public static let maximumBytes = ControlProtocolLimits.maximumCommandSize
}
