import CCurl

/// A blocking HTTP client over libcurl's easy interface, chosen over URLSession because the
/// daemon runs on a small in-vehicle box: FoundationNetworking brings a large runtime into
/// resident memory, libcurl (already on Debian) costs a fraction of it (figures in the issue
/// note and `make bench`). Each call uses its own easy handle, so calls from different
/// threads never share state. Call it from a thread of your own, never the concurrency pool.
public struct CurlHTTPClient: HTTPClient {
  /// Milliseconds allowed to establish the TCP connection.
  public var connectTimeoutMilliseconds: Int
  /// Milliseconds allowed for the whole exchange.
  public var totalTimeoutMilliseconds: Int
  /// Answers larger than this are refused (`tooLarge`), so a wrong server cannot fill memory.
  public var maximumBodyBytes: Int

  public init(
    connectTimeoutMilliseconds: Int = 2_000, totalTimeoutMilliseconds: Int = 10_000, maximumBodyBytes: Int = 16 << 20
  ) {
    self.connectTimeoutMilliseconds = connectTimeoutMilliseconds
    self.totalTimeoutMilliseconds = totalTimeoutMilliseconds
    self.maximumBodyBytes = maximumBodyBytes
  }

  public func send(_ request: HTTPRequest) -> Result<HTTPResponse, HTTPTransportError> {
    // libcurl is loaded (and curl_global_init run, once) on the first request: see shim.h.
    if let problem = dp_curl_load() {
      return .failure(HTTPTransportError(.other, String(cString: problem)))
    }
    guard let handle = dp_curl_easy_init() else {
      return .failure(HTTPTransportError(.other, "curl_easy_init failed"))
    }
    defer { dp_curl_easy_cleanup(handle) }

    let sink = BodySink(limit: maximumBodyBytes)
    let context = Unmanaged.passRetained(sink)
    defer { context.release() }

    var headerList: UnsafeMutablePointer<curl_slist>? = nil
    defer { dp_curl_slist_free_all(headerList) }
    for line in request.headers { headerList = dp_curl_slist_append(headerList, line) }
    // libcurl adds "Expect: 100-continue" to larger POSTs, costing a round trip; no server
    // of ours needs it.
    headerList = dp_curl_slist_append(headerList, "Expect:")

    var errorBuffer = [CChar](repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
    let code: CURLcode = errorBuffer.withUnsafeMutableBufferPointer { errorPointer in
      request.body.withUnsafeBufferPointer { bodyPointer in
        var setup = CURLE_OK
        func set(_ result: CURLcode) { if setup == CURLE_OK { setup = result } }
        set(dp_curl_setopt_string(handle, CURLOPT_URL, request.url))
        set(dp_curl_setopt_string(handle, CURLOPT_PROTOCOLS_STR, "http,https"))
        set(dp_curl_setopt_long(handle, CURLOPT_NOSIGNAL, 1))
        set(dp_curl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, connectTimeoutMilliseconds))
        set(dp_curl_setopt_long(handle, CURLOPT_TIMEOUT_MS, totalTimeoutMilliseconds))
        set(dp_curl_setopt_long(handle, CURLOPT_FOLLOWLOCATION, 0))
        set(dp_curl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errorPointer.baseAddress))
        set(dp_curl_setopt_slist(handle, CURLOPT_HTTPHEADER, headerList))
        set(dp_curl_setopt_write_callback(handle, curlWriteBody))
        set(dp_curl_setopt_pointer(handle, CURLOPT_WRITEDATA, context.toOpaque()))
        if request.method == .post {
          set(dp_curl_setopt_long(handle, CURLOPT_POST, 1))
          set(dp_curl_setopt_off_t(handle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(bodyPointer.count)))
          // An empty body still needs a non-null pointer, or libcurl reads from stdin.
          let emptyBody: StaticString = ""
          let bodyStart =
            bodyPointer.baseAddress.map { UnsafeMutableRawPointer(mutating: $0) }
            ?? UnsafeMutableRawPointer(mutating: emptyBody.utf8Start)
          set(dp_curl_setopt_pointer(handle, CURLOPT_POSTFIELDS, bodyStart))
        }
        guard setup == CURLE_OK else { return setup }
        return dp_curl_easy_perform(handle)
      }
    }

    guard code == CURLE_OK else {
      let detail = String(decoding: errorBuffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
      let message = detail.isEmpty ? String(cString: dp_curl_easy_strerror(code)) : detail
      return .failure(HTTPTransportError(kind(of: code, handle: handle, sink: sink), message))
    }
    var status = 0
    _ = dp_curl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
    return .success(HTTPResponse(status: status, body: sink.bytes))
  }

  private func kind(of code: CURLcode, handle: UnsafeMutableRawPointer, sink: BodySink) -> HTTPTransportError.Kind {
    switch code {
    case CURLE_COULDNT_CONNECT: return .refused
    case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY: return .unresolved
    case CURLE_OPERATION_TIMEDOUT:
      // Timed out before or after the connection was made: a service that is not there
      // differs from one that stopped answering halfway.
      var connectMicroseconds: curl_off_t = 0
      _ = dp_curl_getinfo_off_t(handle, CURLINFO_CONNECT_TIME_T, &connectMicroseconds)
      return connectMicroseconds > 0 ? .timedOut : .connectTimedOut
    case CURLE_GOT_NOTHING, CURLE_RECV_ERROR, CURLE_SEND_ERROR, CURLE_PARTIAL_FILE: return .reset
    case CURLE_WRITE_ERROR where sink.overflowed: return .tooLarge
    default: return .other
    }
  }
}

/// Collects the body; refuses (by returning a short count) once past the limit.
private final class BodySink {
  let limit: Int
  var bytes: [UInt8] = []
  var overflowed = false

  init(limit: Int) { self.limit = limit }
}

private func curlWriteBody(
  _ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ context: UnsafeMutableRawPointer?
) -> Int {
  guard let data, let context else { return 0 }
  let sink = Unmanaged<BodySink>.fromOpaque(context).takeUnretainedValue()
  let length = size * count
  guard sink.bytes.count + length <= sink.limit else {
    sink.overflowed = true
    return 0
  }
  data.withMemoryRebound(to: UInt8.self, capacity: length) {
    sink.bytes.append(contentsOf: UnsafeBufferPointer(start: $0, count: length))
  }
  return length
}
