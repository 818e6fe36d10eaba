import Foundation
import GPSD
import PlatformSupport
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// How the source frames what gpsd writes into lines now that it reads the libgps
/// session's socket itself: a stand-in gpsd on loopback writes one fixed stream (far more
/// than one read takes, so lines are cut between reads) and hangs up. Both ways of reading
/// must hand over exactly the lines written, in order: on the source's own thread, and lent
/// to an owner that reads the socket when it is readable (as dashpilotd's loop does).
@Suite(.serialized) struct GPSDSourceLineTests {
  static let fixes = 600

  /// The greeting, a line longer than any report (dropped whole: a line beyond 16 KB is
  /// no gpsd report), then `fixes` TPVs, CR LF and LF alternating, then an unfinished line.
  static var stream: [UInt8] {
    var text = #"{"class":"VERSION","release":"3.22","proto_major":3,"proto_minor":14}"# + "\r\n"
    text +=
      #"{"class":"TPV","mode":3,"lat":1.5,"lon":2.5,"device":""# + String(repeating: "x", count: 20_000)
      + "\"}\r\n"
    for k in 0..<fixes {
      text += #"{"class":"TPV","mode":3,"lat":\#(Double(k) / 1000),"lon":-7.25,"speed":12.002}"#
      text += k % 2 == 0 ? "\r\n" : "\n"
    }
    text += #"{"class":"TPV","mode":3,"lat":9"#
    return Array(text.utf8)
  }

  static let expectedLatitudes = (0..<fixes).map { Double($0) / 1000 }

  @Test func theSourcesThreadReadsExactlyTheLinesWritten() throws {
    let server = try OneShotServer(Self.stream)
    let events = EventRecorder<GPSDSourceEvent>()
    // The owner's clocks, which stamp every report's arrival.
    let clocks = Clocks(
      wall: { Date(timeIntervalSince1970: 0) }, monotonic: { 1234.5 }, isWallClockSynchronised: { false })
    let source = GPSDSource(
      endpoint: GPSDEndpoint(host: "127.0.0.1", port: server.port),
      backoff: ReconnectBackoff(initialDelay: 60, maximumDelay: 60, jitterFraction: 0), clocks: clocks
    ) { events.append($0) }
    source.start()
    #expect(events.wait(timeout: 30) { $0.contains { if case .disconnected = $0 { true } else { false } } })
    #expect(source.stop())
    Self.check(events.snapshot)
    #expect(
      Set(events.snapshot.compactMap { if case let .report(_, arrival) = $0 { arrival } else { nil } }) == [1234.5])
  }

  @Test func aLentSessionReadsExactlyTheLinesWritten() throws {
    let server = try OneShotServer(Self.stream)
    let events = EventRecorder<GPSDSourceEvent>()
    let sockets = EventRecorder<Int32>()
    let source = GPSDSource(
      endpoint: GPSDEndpoint(host: "127.0.0.1", port: server.port),
      backoff: ReconnectBackoff(initialDelay: 60, maximumDelay: 60, jitterFraction: 0),
      batchHandler: { for event in $0 { events.append(event) } }, socketOpened: { sockets.append($0) })
    source.start()
    #expect(sockets.wait(timeout: 30) { !$0.isEmpty })
    // The owner's loop: wait until readable, read without waiting, until the session ends.
    var descriptor = pollfd(fd: sockets.snapshot[0], events: Int16(POLLIN), revents: 0)
    var open = true
    var reads = 0
    var misstamped = 0
    while open {
      _ = poll(&descriptor, 1, 1_000)
      // The owner stamps what each read brings: here with the read's number.
      let read = source.readAvailable(arrival: Double(reads))
      for report in read.reports {
        if case let .report(_, arrival) = report, arrival != Double(reads) { misstamped += 1 }
        events.append(report)
      }
      open = read.open
      reads += 1
    }
    #expect(reads > 1)
    #expect(misstamped == 0)
    #expect(source.readAvailable(arrival: 0).open == false)
    #expect(events.wait(timeout: 30) { $0.contains { if case .disconnected = $0 { true } else { false } } })
    #expect(source.stop())
    Self.check(events.snapshot)
  }

  static func check(_ recorded: [GPSDSourceEvent]) {
    var latitudes: [Double] = []
    var versions = 0
    for case let .report(report, _) in recorded {
      switch report {
      case let .tpv(tpv):
        latitudes.append(tpv.latitude ?? .nan)
        #expect(tpv.longitude == -7.25 && tpv.speed == 12.002 && tpv.device == nil)
      case .version: versions += 1
      default: Issue.record("unexpected report \(report)")
      }
    }
    #expect(versions == 1)
    #expect(latitudes == expectedLatitudes)
    guard case let .disconnected(reason)? = recorded.last(where: { if case .disconnected = $0 { true } else { false } })
    else {
      Issue.record("no disconnection in \(recorded.suffix(3))")
      return
    }
    #expect(reason == "gpsd closed the connection")
  }
}

/// A listener on 127.0.0.1 that accepts one client, reads its WATCH, writes `bytes` and
/// hangs up.
final class OneShotServer: @unchecked Sendable {
  let port: Int

  init(_ bytes: [UInt8]) throws {
    let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
        bind(listener, socketAddress, length) == 0 && listen(listener, 1) == 0
          && getsockname(listener, socketAddress, &length) == 0
      }
    }
    guard listener >= 0, bound else { throw POSIXError(.EADDRNOTAVAIL) }
    port = Int(UInt16(bigEndian: address.sin_port))
    let thread = NativeThread {
      let client = accept(listener, nil, nil)
      close(listener)
      guard client >= 0 else { return }
      var request = [UInt8](repeating: 0, count: 512)
      _ = recv(client, &request, request.count, 0)
      var offset = 0
      // Small writes, so the reader's reads end anywhere in a line.
      while offset < bytes.count {
        let size = min(bytes.count - offset, 1_000 + offset % 777)
        let written = bytes.withUnsafeBytes { send(client, $0.baseAddress! + offset, size, Int32(MSG_NOSIGNAL)) }
        guard written > 0 else { break }
        offset += written
      }
      shutdown(client, Int32(SHUT_RDWR))
      close(client)
    }
    thread.name = "test.gpsd"
    _ = thread.start()
  }
}
