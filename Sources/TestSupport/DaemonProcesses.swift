import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Finds the built executables and runs them as real processes.
public enum DaemonBinaries {
  public struct Missing: Error, CustomStringConvertible {
    public var description: String
  }

  /// The build directory holding the test runner, which holds the executables too.
  public static var buildDirectory: URL {
    if let runner = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
      var url = URL(fileURLWithPath: runner).deletingLastPathComponent()
      // The runner is either beside the executables or inside an .xctest bundle.
      while url.path != "/" && !FileManager.default.fileExists(atPath: url.appendingPathComponent("dashpilotd").path) {
        if url.lastPathComponent == ".build" { break }
        url.deleteLastPathComponent()
      }
      if FileManager.default.fileExists(atPath: url.appendingPathComponent("dashpilotd").path) { return url }
    }
    return TestPaths.repositoryRoot.appendingPathComponent(".build/debug")
  }

  public static func url(_ name: String) throws -> URL {
    let url = buildDirectory.appendingPathComponent(name)
    guard FileManager.default.isExecutableFile(atPath: url.path) else {
      throw Missing(description: "\(url.path) is not built; run `swift build` first")
    }
    return url
  }
}

/// What a finished process left behind.
public struct ProcessOutcome: Sendable, Hashable {
  public var status: Int32
  public var standardOutput: String
  public var standardError: String
}

public enum ProcessRunner {
  /// Runs `executable` to completion (at most `timeout` seconds, then it is killed).
  public static func run(
    _ executable: URL, _ arguments: [String], environment: [String: String]? = nil, timeout: TimeInterval = 30
  ) throws -> ProcessOutcome {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    if let environment { process.environment = environment }
    let directory = try TestPaths.temporaryDirectory("dashpilot-run")
    defer { try? FileManager.default.removeItem(at: directory) }
    let outURL = directory.appendingPathComponent("out")
    let errURL = directory.appendingPathComponent("err")
    _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
    _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
    let out = try FileHandle(forWritingTo: outURL)
    let err = try FileHandle(forWritingTo: errURL)
    process.standardOutput = out
    process.standardError = err
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let deadline = Date().addingTimeInterval(timeout)
    while process.isRunning && Date() < deadline { usleep(10_000) }
    if process.isRunning {
      kill(process.processIdentifier, SIGKILL)
    }
    process.waitUntilExit()
    try out.close()
    try err.close()
    return ProcessOutcome(
      status: process.terminationStatus,
      standardOutput: (try? String(contentsOf: outURL, encoding: .utf8)) ?? "",
      standardError: (try? String(contentsOf: errURL, encoding: .utf8)) ?? "")
  }
}

/// A datagram socket standing in for systemd's NOTIFY_SOCKET, so tests read exactly what
/// the daemon tells the service manager (READY=1, STATUS=, WATCHDOG=1, STOPPING=1).
public final class NotifySocketListener: @unchecked Sendable {
  public let path: String
  private let fd: Int32
  private let lock = NSLock()
  private var received: [String] = []

  public init(path: String) throws {
    self.path = path
    fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
      for (index, byte) in path.utf8.enumerated() { raw[index] = byte }
    }
    let result = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
    }
    guard result == 0 else { throw DaemonBinaries.Missing(description: "cannot bind \(path)") }
  }

  deinit { close(fd) }

  /// Every message so far, each the whole datagram.
  public var messages: [String] {
    drain()
    return lock.withLock { received }
  }

  /// Waits until a message contains `text`; returns that message, nil on timeout.
  public func wait(for text: String, timeout: TimeInterval = 20) -> String? {
    let deadline = Date().addingTimeInterval(timeout)
    repeat {
      if let found = messages.first(where: { $0.contains(text) }) { return found }
      var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
      _ = poll(&descriptor, 1, 50)
    } while Date() < deadline
    return nil
  }

  private func drain() {
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
      guard count > 0 else { return }
      let message = String(decoding: buffer[0..<count], as: UTF8.self)
      lock.withLock { received.append(message) }
    }
  }
}

/// A real `dashpilotd` on temporary paths, started unprivileged-style (no systemd) with a
/// NOTIFY_SOCKET of the test's own, and stopped with SIGTERM.
public final class DaemonUnderTest: @unchecked Sendable {
  public let directory: URL
  public let socketPath: String
  public let databasePath: String
  public let configPath: String?
  public let notifications: NotifySocketListener
  public let process = Process()
  public let logPath: String

  /// Starts the daemon; `config` is written to a file and passed with --config.
  /// `executable` runs another copy of `dashpilotd` (one with other programs beside it).
  /// `databasePath` is a database of the test's own, which outlives the daemon (a restart on
  /// the same file); by default the daemon's temporary directory holds a new one.
  public init(
    config: String? = nil, arguments: [String] = [], environment: [String: String] = [:], executable: URL? = nil,
    databasePath: String? = nil
  ) throws {
    directory = try TestPaths.temporaryDirectory("dashpilotd")
    chmod(directory.path, 0o755)
    socketPath = directory.appendingPathComponent("control.sock").path
    self.databasePath = databasePath ?? directory.appendingPathComponent("dashpilot.sqlite").path
    logPath = directory.appendingPathComponent("daemon.log").path
    notifications = try NotifySocketListener(path: directory.appendingPathComponent("notify.sock").path)
    var allArguments = ["--socket", socketPath, "--database", self.databasePath, "--gpsd", "127.0.0.1:1"]
    if let config {
      let path = directory.appendingPathComponent("dashpilot.conf").path
      try Self.withoutFreeSpaceFloor(config).write(toFile: path, atomically: true, encoding: .utf8)
      configPath = path
      allArguments += ["--config", path]
    } else {
      configPath = nil
    }
    process.executableURL = try executable ?? DaemonBinaries.url("dashpilotd")
    process.arguments = allArguments + arguments
    var processEnvironment = ProcessInfo.processInfo.environment
    for key in ["NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID", "JOURNAL_STREAM", "INVOCATION_ID", "LISTEN_FDS"] {
      processEnvironment[key] = nil
    }
    processEnvironment["NOTIFY_SOCKET"] = notifications.path
    processEnvironment.merge(environment) { $1 }
    process.environment = processEnvironment
    _ = FileManager.default.createFile(atPath: logPath, contents: nil)
    process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: logPath))
    process.standardOutput = FileHandle.nullDevice
    try process.run()
  }

  /// `config`, with `[Store] FreeSpaceFloor=0` added when it has an uplink and sets no floor
  /// of its own. Below the floor (by default 10 % of the file system) a daemon with an uplink
  /// deletes the shifts the broker acknowledged, and a test's temporary directory is on this
  /// machine's disk: on one nearly full (a CI machine once had 24.0G free of 252G) a test's
  /// acknowledged shifts went before the test read them. The floor has its own tests, on a
  /// tmpfs of a known size (DaemonFreeSpaceFloorTests).
  public static func withoutFreeSpaceFloor(_ config: String) -> String {
    guard config.contains("[Uplink]"), !config.contains("FreeSpaceFloor") else { return config }
    return config + (config.hasSuffix("\n") || config.isEmpty ? "" : "\n") + "[Store]\nFreeSpaceFloor=0\n"
  }

  /// Waits for READY=1; throws with the daemon's log when it never comes.
  public func waitUntilReady(timeout: TimeInterval = 20) throws {
    guard notifications.wait(for: "READY=1", timeout: timeout) != nil else {
      throw DaemonBinaries.Missing(description: "dashpilotd never reported READY=1; its log:\n\(log)")
    }
  }

  public var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

  /// Waits until the daemon's log holds `text`; the log's line that does, nil on timeout.
  public func waitForLog(_ text: String, timeout: TimeInterval = 60) -> String? {
    let deadline = Date().addingTimeInterval(timeout)
    repeat {
      if let line = log.split(separator: "\n").first(where: { $0.contains(text) }) { return String(line) }
      usleep(20_000)
    } while Date() < deadline
    return nil
  }

  public var pid: Int32 { process.processIdentifier }

  public func signal(_ number: Int32) { kill(process.processIdentifier, number) }

  /// Waits for the process to end; nil if it is still running after `timeout`.
  public func waitForExit(timeout: TimeInterval = 20) -> Int32? {
    let deadline = Date().addingTimeInterval(timeout)
    while process.isRunning && Date() < deadline { usleep(10_000) }
    return process.isRunning ? nil : process.terminationStatus
  }

  /// SIGTERM, wait, and remove the temporary directory; returns the exit status.
  @discardableResult
  public func stop() -> Int32? {
    if process.isRunning { signal(SIGTERM) }
    let status = waitForExit()
    if status == nil {
      signal(SIGKILL)
      process.waitUntilExit()
    }
    try? FileManager.default.removeItem(at: directory)
    return status
  }

  /// Runs the real `dashpilotctl` against this daemon's socket.
  public func control(_ arguments: [String], environment: [String: String] = [:]) throws -> ProcessOutcome {
    var processEnvironment = ProcessInfo.processInfo.environment
    processEnvironment["NO_COLOR"] = "1"
    processEnvironment["DASHPILOT_SOCKET"] = nil
    processEnvironment.merge(environment) { $1 }
    return try ProcessRunner.run(
      try DaemonBinaries.url("dashpilotctl"), arguments + ["--socket", socketPath], environment: processEnvironment)
  }
}

extension Dictionary where Key == String, Value == Any {
  /// `error.code` of an answer, for short assertions.
  public var errorCode: String? { (self["error"] as? [String: Any])?["code"] as? String }
  public var errorMessage: String? { (self["error"] as? [String: Any])?["message"] as? String }
}
