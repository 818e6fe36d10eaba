import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A real consumer: `mosquitto_sub -v` with a persistent session (QoS 1, clean session off,
/// a fixed client id), so what the broker queued for it while it was away is delivered when
/// it returns. Every line it prints is "TOPIC PAYLOAD"; they are kept in a file.
public final class MosquittoSubscriber: @unchecked Sendable {
  // @unchecked: `HeldProcess` guards the process handle.
  public let outputFile: URL
  private let held = HeldProcess()
  private let connectionArguments: [String]

  public init(
    port: Int, topic: String, directory: URL, clientID: String = "test-consumer", caFile: String? = nil,
    username: String? = nil, password: String? = nil
  ) throws {
    outputFile = directory.appendingPathComponent("\(clientID).out")
    _ = FileManager.default.createFile(atPath: outputFile.path, contents: nil)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/mosquitto_sub")
    var connection = ["-h", "127.0.0.1", "-p", String(port)]
    if let caFile { connection += ["--cafile", caFile] }
    if let username { connection += ["-u", username] }
    if let password { connection += ["-P", password] }
    self.connectionArguments = connection
    process.arguments = connection + ["-t", topic, "-q", "1", "-c", "-i", clientID, "-v"]
    process.standardOutput = try FileHandle(forWritingTo: outputFile)
    process.standardError = FileHandle.nullDevice
    try held.start(process)
  }

  /// Every message received so far, as (topic, payload), in arrival order.
  public var messages: [(topic: String, payload: String)] {
    let text = (try? String(contentsOf: outputFile, encoding: .utf8)) ?? ""
    return text.split(separator: "\n").compactMap { line in
      let parts = line.split(separator: " ", maxSplits: 1)
      guard parts.count == 2 else { return nil }
      return (String(parts[0]), String(parts[1]))
    }
  }

  /// Publishes probes with `mosquitto_pub` on `probeTopic` (which the subscription must
  /// match) until one arrives, so the test knows the subscription is in place.
  public func waitUntilSubscribed(probeTopic: String, timeout: TimeInterval = 10) throws {
    let deadline = Date() + timeout
    while Date() < deadline {
      try MosquittoBroker.run(
        "/usr/bin/mosquitto_pub", connectionArguments + ["-t", probeTopic, "-q", "1", "-m", "probe"])
      let probeDeadline = Date() + 0.5
      while Date() < probeDeadline {
        if messages.contains(where: { $0.topic == probeTopic }) { return }
        usleep(20_000)
      }
    }
    throw TestProcessError("mosquitto_sub never received a probe on \(probeTopic)")
  }

  public func stop() { held.stop() }
}
