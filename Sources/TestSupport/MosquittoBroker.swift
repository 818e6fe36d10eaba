import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A real mosquitto broker for tests, on 127.0.0.1 and a free port, with its own config
/// file, persistence on, in its own directory. Stop and start it again to simulate an
/// outage; it is killed when released.
public final class MosquittoBroker: @unchecked Sendable {
  // @unchecked: a test drives it from one task at a time; `HeldProcess` guards the process.
  public struct TLSFiles: Sendable {
    public var caFile: String
    public var certFile: String
    public var keyFile: String

    public init(caFile: String, certFile: String, keyFile: String) {
      self.caFile = caFile
      self.certFile = certFile
      self.keyFile = keyFile
    }
  }

  public let directory: URL
  public let port: Int
  public let configFile: URL
  public let logFile: URL
  private let held = HeldProcess()

  public static let executable =
    ["/usr/sbin/mosquitto", "/usr/local/sbin/mosquitto"]
    .first { FileManager.default.isExecutableFile(atPath: $0) } ?? "mosquitto"

  /// Writes the config; `passwords` (user → password) turns anonymous access off; `extra`
  /// lines go at the end (the office's tests lift mosquitto's queue and in-flight limits).
  public init(directory: URL, passwords: [String: String] = [:], tls: TLSFiles? = nil, extra: [String] = []) throws {
    self.directory = directory
    self.port = try FreePort.find()
    configFile = directory.appendingPathComponent("mosquitto.conf")
    logFile = directory.appendingPathComponent("mosquitto.log")
    let persistence = directory.appendingPathComponent("persistence", isDirectory: true)
    try FileManager.default.createDirectory(at: persistence, withIntermediateDirectories: true)
    var lines = [
      "listener \(port) 127.0.0.1",
      "persistence true",
      "persistence_location \(persistence.path)/",
      "log_dest file \(logFile.path)",
      "log_type all",
      // Ignored unless started as root; keeps the broker able to write its directory.
      "user root",
    ]
    if passwords.isEmpty {
      lines.append("allow_anonymous true")
    } else {
      let passwordFile = directory.appendingPathComponent("passwords")
      try passwords.map { "\($0.key):\($0.value)" }.joined(separator: "\n").appending("\n")
        .write(to: passwordFile, atomically: true, encoding: .utf8)
      try Self.run("/usr/bin/mosquitto_passwd", ["-U", passwordFile.path])
      lines += ["allow_anonymous false", "password_file \(passwordFile.path)"]
    }
    if let tls {
      lines += ["cafile \(tls.caFile)", "certfile \(tls.certFile)", "keyfile \(tls.keyFile)"]
    }
    lines += extra
    try (lines.joined(separator: "\n") + "\n").write(to: configFile, atomically: true, encoding: .utf8)
  }

  /// Starts the broker and waits until it accepts connections.
  public func start() throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: Self.executable)
    process.arguments = ["-c", configFile.path]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try held.start(process)
    let deadline = Date() + 10
    while Date() < deadline {
      if FreePort.canConnect(port: port) { return }
      guard process.isRunning else { break }
      usleep(20_000)
    }
    throw TestProcessError("mosquitto did not start on port \(port): \(log)")
  }

  /// Stops it the way a service manager would (SIGTERM: it saves its persistence file).
  public func stop() { held.stop() }

  /// Freezes the broker (SIGSTOP): connections stay open but nothing is answered.
  public func pause() {
    if let process = held.current { kill(process.processIdentifier, SIGSTOP) }
  }

  public func resume() {
    if let process = held.current { kill(process.processIdentifier, SIGCONT) }
  }

  public var log: String { (try? String(contentsOf: logFile, encoding: .utf8)) ?? "" }

  @discardableResult
  static func run(_ executable: String, _ arguments: [String]) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    try ProcessLaunch.run(process)
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let text = String(decoding: data, as: UTF8.self)
    guard process.terminationStatus == 0 else {
      throw TestProcessError(
        "\(executable) \(arguments.joined(separator: " ")) exited \(process.terminationStatus): \(text)")
    }
    return text
  }
}

public struct TestProcessError: Error, CustomStringConvertible {
  public var description: String
  public init(_ description: String) { self.description = description }
}
