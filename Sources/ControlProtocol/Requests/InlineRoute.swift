/// A route sent as the text of a route file rather than as coordinates (`route.load` with
/// `args.gpx` or `args.geojson`): what a fleet office has is a file, and the box that
/// receives it reads it with the same reader as `dashpilotctl route load FILE`, so the text
/// is carried here unread. The parser checks only its kind and size.
public struct InlineRoute: Sendable, Hashable {
  /// The argument it came in, which is also the file format it is read as.
  public enum Format: String, Sendable, Hashable, CaseIterable {
    case gpx
    case geojson
  }

  public var format: Format
  /// The document as sent (a GeoJSON object sent as an object is carried as its JSON text).
  public var text: String

  public init(format: Format, text: String) {
    self.format = format
    self.text = text
  }

  /// What a reading error names where the CLI's names the file: `args.gpx`.
  public var source: String { "args.\(format.rawValue)" }

  /// The most bytes of route text: a fleet command's payload limit, so over MQTT the
  /// payload's own `too_large` answers first; on the socket a line's 64 KiB does.
  public static let maximumBytes = ControlProtocolLimits.maximumCommandSize
}
