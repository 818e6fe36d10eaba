/// Why start-up stopped over configuration, naming where: the file and line, and the key,
/// so the person editing it goes straight there.
public struct ConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
  public var file: String?
  public var line: Int?
  public var key: String?
  public var message: String

  public init(file: String? = nil, line: Int? = nil, key: String? = nil, _ message: String) {
    self.file = file
    self.line = line
    self.key = key
    self.message = message
  }

  /// `/etc/dashpilot/dashpilot.conf:12: Units: "leagues" is not miles or kilometres`
  public var description: String {
    var place = ""
    if let file { place += file }
    if let line { place += ":\(line)" }
    var text = place.isEmpty ? "" : place + ": "
    if let key { text += "\(key): " }
    return text + message
  }
}
