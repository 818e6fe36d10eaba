/// Where gpsd listens. DashPilot talks to it over TCP; the default is gpsd's own.
public struct GPSDEndpoint: Sendable, Hashable, CustomStringConvertible {
  public var host: String
  public var port: Int

  public init(host: String = "localhost", port: Int = 2947) {
    self.host = host
    self.port = port
  }

  public static let standard = GPSDEndpoint()

  /// Parses `host`, `host:port` or `[v6-address]:port` as written in a config file or on a
  /// command line; nil when the port is not 1-65535 or the host is empty.
  public init?(parsing text: String) {
    var host = Substring(text)
    var port = 2947
    if host.hasPrefix("[") {
      guard let close = host.firstIndex(of: "]") else { return nil }
      let rest = host[host.index(after: close)...]
      host = host[host.index(after: host.startIndex)..<close]
      if !rest.isEmpty {
        guard rest.hasPrefix(":"), let p = Int(rest.dropFirst()) else { return nil }
        port = p
      }
    } else if let colon = host.lastIndex(of: ":"), host.firstIndex(of: ":") == colon {
      guard let p = Int(host[host.index(after: colon)...]) else { return nil }
      port = p
      host = host[..<colon]
    }
    guard !host.isEmpty, (1...65_535).contains(port) else { return nil }
    self.init(host: String(host), port: port)
  }

  public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}
