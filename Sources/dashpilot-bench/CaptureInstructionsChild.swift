// The child `capture.instructions_per_fix` counts under callgrind: a stand-in gpsd on
// loopback serves a fixed log once, and a real GPSDSource reads it; each report goes
// through CaptureService and StoreSampleSink into a real SQLite file, as in the daemon. The
// store's batches and the age estimator are given the fix times (as replay does), so what
// is counted never depends on how fast valgrind ran.
import Capture
import DashPilotCore
import Foundation
import GPSD
import PlatformSupport
import Store

#if canImport(Glibc)
  import Glibc
#endif

enum CaptureInstructionsChild {
  /// Capture's state, touched only on the source's thread once it runs.
  final class Pipeline: @unchecked Sendable {
    var fixTime: Date
    var service: CaptureService
    let sink: StoreSampleSink
    let done = Condition()
    var finished = false

    init(store: SampleStore, shiftID: Int64, firstFix: Date) throws {
      fixTime = firstFix
      var box: Pipeline?
      sink = StoreSampleSink(batch: SampleBatch(store: store, shiftID: shiftID)) { box?.fixTime ?? firstFix }
      var counter = 0
      service = CaptureService(
        sink: sink,
        makeSessionID: {
          counter += 1
          return CaptureSessionID("bench-\(counter)")
        })
      box = self
      try service.startCapture()
    }

    func handle(_ event: GPSDSourceEvent) {
      switch event {
      case let .report(report, _):
        if case let .tpv(tpv) = report, let time = tpv.time { fixTime = time }
        _ = service.receive(report, arrival: fixTime.timeIntervalSince1970)
      case .disconnected:
        done.withLock { finished = true }
        done.broadcast()
      case .connected, .retrying:
        break
      }
    }
  }

  static func run(log: String, database: String) -> Int32 {
    do {
      let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: log)))
      let (listener, port) = try listen()
      let server = NativeThread { serve(bytes, on: listener) }
      server.name = "bench.gpsd"
      _ = server.start()
      let store = try SampleStore(path: database)
      let firstFix = Date(timeIntervalSince1970: BenchDrive.firstFixTime)
      let shift = try store.startShift(at: firstFix)
      let pipeline = try Pipeline(store: store, shiftID: shift.id, firstFix: firstFix)
      let source = GPSDSource(
        endpoint: GPSDEndpoint(host: "127.0.0.1", port: port),
        backoff: ReconnectBackoff(initialDelay: 60, maximumDelay: 60, jitterFraction: 0)
      ) { pipeline.handle($0) }
      source.start()
      pipeline.done.withLock {
        while !pipeline.finished { pipeline.done.wait() }
      }
      source.stop()
      _ = pipeline.service.stopCapture(reason: "end of log")
      try pipeline.sink.flush()
      let kept = try store.samples(ofShift: shift.id).count
      StandardError.write("capture child: \(pipeline.service.statistics.received) fixes judged, \(kept) kept\n")
      return 0
    } catch {
      StandardError.write("capture child failed: \(error)\n")
      return 1
    }
  }

  /// A listening socket on 127.0.0.1 and its port.
  static func listen() throws -> (Int32, Int) {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
        bind(fd, socketAddress, length) == 0 && Glibc.listen(fd, 1) == 0
          && getsockname(fd, socketAddress, &length) == 0
      }
    }
    guard fd >= 0, bound else { throw CaptureInstructionsBench.Failure(description: "no loopback listener") }
    return (fd, Int(UInt16(bigEndian: address.sin_port)))
  }

  /// Accepts one client, waits for its WATCH, writes the whole log and hangs up.
  static func serve(_ bytes: [UInt8], on listener: Int32) {
    let client = accept(listener, nil, nil)
    guard client >= 0 else { return }
    var request = [UInt8](repeating: 0, count: 512)
    _ = recv(client, &request, request.count, 0)
    var offset = 0
    while offset < bytes.count {
      let written = bytes.withUnsafeBytes { send(client, $0.baseAddress! + offset, bytes.count - offset, 0) }
      guard written > 0 else { break }
      offset += written
    }
    shutdown(client, Int32(SHUT_RDWR))
    close(client)
    close(listener)
  }
}
