// `status` as a client that asks every 20 ms sees it while something else runs: each ask is
// due on a fixed schedule, and its latency counts from when it was due, not from when the
// previous answer let it be sent. A loop stalled for six seconds therefore shows as six
// seconds of late answers, not as one slow answer among hundreds of quick ones.
import Foundation
import TestSupport

#if canImport(Glibc)
  import Glibc
#endif

final class StatusProbe: @unchecked Sendable {
  static let interval = 0.02

  private let socketPath: String
  private let lock = NSLock()
  private var stopping = false
  private var latencies: [Double] = []
  private var failure: String?
  private let done = DispatchSemaphore(value: 0)

  init(socketPath: String) { self.socketPath = socketPath }

  /// Starts asking on a thread of its own, on a connection of its own.
  func start() {
    let thread = Thread { [self] in
      run()
      done.signal()
    }
    thread.start()
  }

  /// Stops asking; the latencies in seconds, sorted.
  func stop() throws -> [Double] {
    lock.withLock { stopping = true }
    done.wait()
    if let failure { throw YearBench.Failure(description: "status probe: \(failure)") }
    return latencies.sorted()
  }

  private func run() {
    guard let client = try? RawSocketClient(path: socketPath) else {
      failure = "cannot connect to \(socketPath)"
      return
    }
    let start = ProcessFigures.now()
    var ask = 0
    while !lock.withLock({ stopping }) {
      let due = start + Double(ask) * Self.interval
      ProcessFigures.sleep(until: due)
      guard let answer = client.ask(#"{"v":1,"id":\#(ask + 1),"cmd":"status"}"#, timeout: 300),
        answer["result"] != nil
      else {
        failure = "status \(ask + 1) got no answer"
        return
      }
      latencies.append(ProcessFigures.now() - due)
      ask += 1
    }
  }

  /// The value below which `fraction` of the sorted `values` fall (nearest rank).
  static func percentile(_ values: [Double], _ fraction: Double) -> Double {
    guard !values.isEmpty else { return 0 }
    let rank = Int((fraction * Double(values.count)).rounded(.up))
    return values[min(values.count - 1, max(0, rank - 1))]
  }
}
