import DashPilotCore
import Guidance
import Routing
import TestSupport
import Testing

/// The HTTP seam against real sockets on loopback: what libcurl reports for each way a
/// server can fail, and what the providers make of it.
@Suite struct CurlHTTPClientTests {
  let request = RouteRequest(
    origin: GeoCoordinate(latitude: 37.5, longitude: 127.0), course: 90,
    destination: GeoCoordinate(latitude: 37.509, longitude: 127.011), mode: .driving)

  @Test func postsTheBodyAndReadsStatusAndBody() throws {
    let server = try LoopbackHTTPServer(
      .answer("HTTP/1.1 201 Created\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello"))
    defer { server.stop() }
    let client = CurlHTTPClient()
    let result = client.send(
      HTTPRequest(
        method: .post, url: server.url + "/route", headers: ["Content-Type: application/json"],
        body: Array("{\"a\":1}".utf8)))
    #expect(result == .success(HTTPResponse(status: 201, body: Array("hello".utf8))))
    let received = try #require(server.received.first)
    #expect(received.hasPrefix("POST /route HTTP/1.1\r\n"))
    #expect(received.contains("\r\nContent-Type: application/json\r\n"))
    #expect(received.contains("\r\nContent-Length: 7\r\n"))
    #expect(!received.lowercased().contains("expect:"))
    #expect(received.hasSuffix("\r\n\r\n{\"a\":1}"))
  }

  @Test func nothingListeningIsRefusedAndUnavailable() throws {
    let port = try FreePort.find()
    let result = CurlHTTPClient().send(HTTPRequest(method: .get, url: "http://127.0.0.1:\(port)/"))
    #expect(result.transportKind == .refused)
    let provider = ValhallaProvider(baseURL: "http://127.0.0.1:\(port)")
    let failure = try #require(provider.route(for: request).failure)
    #expect(failure.kind == .unavailable)
    #expect(failure.detail.hasPrefix("valhalla: Failed to connect to 127.0.0.1 port \(port)"))
  }

  @Test func aResetConnectionIsDropped() throws {
    let server = try LoopbackHTTPServer(.reset)
    defer { server.stop() }
    #expect(CurlHTTPClient().send(HTTPRequest(method: .get, url: server.url)).transportKind == .reset)
    #expect(OSRMProvider(baseURL: server.url).route(for: request).failureKind == .connectionDropped)
  }

  @Test func aConnectionClosedWithoutAnswerIsDropped() throws {
    let server = try LoopbackHTTPServer(.closeSilently)
    defer { server.stop() }
    let result = CurlHTTPClient().send(HTTPRequest(method: .get, url: server.url))
    #expect(result.transportKind == .reset)
    #expect(result.transportError?.message == "Empty reply from server")
  }

  @Test func aServerThatNeverAnswersTimesOutAndIsDropped() throws {
    let server = try LoopbackHTTPServer(.hang)
    defer { server.stop() }
    let client = CurlHTTPClient(connectTimeoutMilliseconds: 1_000, totalTimeoutMilliseconds: 300)
    #expect(client.send(HTTPRequest(method: .get, url: server.url)).transportKind == .timedOut)
    #expect(ValhallaProvider(baseURL: server.url, client: client).route(for: request).failureKind == .connectionDropped)
  }

  @Test func anAnswerLargerThanTheLimitIsRefused() throws {
    let body = String(repeating: "x", count: 5_000)
    let server = try LoopbackHTTPServer(.answer("HTTP/1.1 200 OK\r\nContent-Length: 5000\r\n\r\n" + body))
    defer { server.stop() }
    let client = CurlHTTPClient(maximumBodyBytes: 1_000)
    #expect(client.send(HTTPRequest(method: .get, url: server.url)).transportKind == .tooLarge)
    #expect(OSRMProvider(baseURL: server.url, client: client).route(for: request).failureKind == .unreadableResponse)
  }

  @Test func otherSchemesAreRefused() {
    let result = CurlHTTPClient().send(HTTPRequest(method: .get, url: "file:///etc/passwd"))
    #expect(result.transportKind == .other)
  }

  @Test func anUnresolvableNameIsUnavailable() {
    let result = CurlHTTPClient().send(HTTPRequest(method: .get, url: "http://no-such-host.invalid/"))
    #expect(result.transportKind == .unresolved)
  }
}

/// Statuses that gateways in front of hosted engines answer with (the engines themselves
/// never send them): served over a real socket, bodies in the usual gateway form, not
/// recorded from an engine.
@Suite struct GatewayStatusTests {
  let request = RouteRequest(
    origin: GeoCoordinate(latitude: 37.5, longitude: 127.0), course: nil,
    destination: GeoCoordinate(latitude: 37.509, longitude: 127.011), mode: .driving)

  func kinds(status: Int, reason: String) throws -> [RouteFailure.Kind?] {
    let body = "{\"message\":\"\(reason)\"}"
    let server = try LoopbackHTTPServer(
      .answer(
        "HTTP/1.1 \(status) \(reason)\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
      ))
    defer { server.stop() }
    let answers = [
      ValhallaProvider(baseURL: server.url).route(for: request), OSRMProvider(baseURL: server.url).route(for: request),
    ]
    for answer in answers where answer.failure?.detail.contains("HTTP \(status)") != true {
      Issue.record("HTTP \(status) gave \(answer)")
    }
    return answers.map(\.failureKind)
  }

  @Test func credentialsPermissionQuotaAndUnavailable() throws {
    #expect(try kinds(status: 401, reason: "Unauthorized") == [.credentials, .credentials])
    #expect(try kinds(status: 403, reason: "Forbidden") == [.permissionRestricted, .permissionRestricted])
    #expect(try kinds(status: 402, reason: "Payment Required") == [.quotaExhausted, .quotaExhausted])
    #expect(try kinds(status: 429, reason: "Too Many Requests") == [.quotaExhausted, .quotaExhausted])
    #expect(try kinds(status: 503, reason: "Service Unavailable") == [.unavailable, .unavailable])
    #expect(try kinds(status: 500, reason: "Internal Server Error") == [.unavailable, .unavailable])
  }

  @Test func permanenceFollowsTheSeed() throws {
    let failure = try #require(
      ValhallaAnswer.interpret(HTTPResponse(status: 401, body: []), for: request).failure)
    #expect(failure == RouteFailure(.credentials, "valhalla: HTTP 401, credentials missing or rejected"))
    #expect(failure.isPermanent)
    #expect(ValhallaAnswer.interpret(HTTPResponse(status: 503, body: []), for: request).failure?.isPermanent == false)
  }
}

extension Result where Failure == HTTPTransportError {
  var transportError: HTTPTransportError? {
    if case .failure(let error) = self { return error }
    return nil
  }

  var transportKind: HTTPTransportError.Kind? { transportError?.kind }
}
