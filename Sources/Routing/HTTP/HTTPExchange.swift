/// One HTTP request as a route provider makes it: small, complete in memory, no redirects.
public struct HTTPRequest: Sendable, Hashable {
  public enum Method: String, Sendable, Hashable {
    case get = "GET"
    case post = "POST"
  }

  public var method: Method
  public var url: String
  /// Whole header lines, `Name: value`.
  public var headers: [String]
  public var body: [UInt8]

  public init(method: Method, url: String, headers: [String] = [], body: [UInt8] = []) {
    self.method = method
    self.url = url
    self.headers = headers
    self.body = body
  }
}

/// What the server answered: any status, the body as bytes.
public struct HTTPResponse: Sendable, Hashable {
  public var status: Int
  public var body: [UInt8]

  public init(status: Int, body: [UInt8]) {
    self.status = status
    self.body = body
  }
}

/// Why no answer came back at all.
public struct HTTPTransportError: Error, Sendable, Hashable, CustomStringConvertible {
  public enum Kind: String, Sendable, Hashable {
    /// Nothing listens there (or the host is unreachable): the service is down.
    case refused
    /// The name did not resolve.
    case unresolved
    /// No connection within the connect timeout.
    case connectTimedOut
    /// Connected, but the whole exchange did not finish within the total timeout.
    case timedOut
    /// The connection was closed or reset before a whole answer arrived.
    case reset
    /// The answer was larger than the client accepts.
    case tooLarge
    /// Anything else libcurl reports (bad URL, unsupported protocol, ...).
    case other
  }

  public var kind: Kind
  /// libcurl's explanation, for the journal.
  public var message: String

  public init(_ kind: Kind, _ message: String) {
    self.kind = kind
    self.message = message
  }

  public var description: String { "\(kind.rawValue): \(message)" }
}

/// The seam between providers and the network: one blocking exchange. Providers are tested
/// against recorded answers through `interpret` functions; this seam is tested against real
/// sockets in `CurlHTTPClientTests`.
public protocol HTTPClient: Sendable {
  func send(_ request: HTTPRequest) -> Result<HTTPResponse, HTTPTransportError>
}
