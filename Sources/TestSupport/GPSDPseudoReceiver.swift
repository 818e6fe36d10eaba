import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A receiver on a pseudo-terminal, fed NMEA lines at a steady pace by a thread of its own,
/// with a real gpsd reading it that a test can kill and start again while the receiver goes
/// on talking (gpsfake cannot outlive its gpsd, so the restart test needs this).
public final class GPSDPseudoReceiver: @unchecked Sendable {
  public let port: Int
  public let devicePath: String
  private let master: Int32
  private let slaveHolder: Int32
  private let lines: [String]
  private let interval: Double
  private let lock = NSCondition()
  private var linesWritten = 0
  private var feeding = false
  private var stopped = false
  private var gpsd: GPSDChildProcess?
  /// What every gpsd started here printed, for a failing test's message.
  private let gpsdOutput: URL

  /// Opens the pseudo-terminal; nothing is written until `startFeeding()`.
  public init(nmea: URL, secondsPerLine: Double = 0.02) throws {
    let text = try String(contentsOf: nmea, encoding: .utf8)
    lines = text.split(whereSeparator: \.isNewline).map(String.init)
    interval = secondsPerLine
    port = try FreePort.find()
    (master, devicePath) = try PseudoTerminal.openMaster()
    // Holding the slave open keeps the terminal alive while gpsd is down.
    slaveHolder = open(devicePath, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)
    gpsdOutput = FileManager.default.temporaryDirectory.appendingPathComponent("gpsd-\(UUID().uuidString).log")
    _ = fcntl(master, F_SETFL, fcntl(master, F_GETFL) | O_NONBLOCK)
  }

  /// Starts gpsd (`gpsd -N -n -b -S PORT DEVICE`) and waits until it listens.
  public func startGPSD(timeout: Double = 10) throws {
    let process = try GPSDChildProcess.gpsd(
      port: port, [devicePath], outputPath: gpsdOutput.path, timeout: timeout)
    lock.lock()
    gpsd = process
    lock.unlock()
  }

  /// Kills gpsd at once (SIGKILL to its group) and waits until its port is closed.
  public func killGPSD() {
    lock.lock()
    let process = gpsd
    gpsd = nil
    lock.unlock()
    process?.killGroup()
  }

  /// Starts writing the log, one line every `secondsPerLine`, on a thread of its own.
  /// Lines written while nobody reads are dropped, as a real receiver's would be.
  public func startFeeding() {
    lock.lock()
    defer { lock.unlock() }
    guard !feeding else { return }
    feeding = true
    let thread = Thread { [self] in feed() }
    thread.name = "test.pseudo-receiver"
    thread.start()
  }

  /// How many lines have been written so far.
  public var progress: Int {
    lock.lock()
    defer { lock.unlock() }
    return linesWritten
  }

  public var lineCount: Int { lines.count }

  /// Waits until at least `count` lines were written (or `timeout` passes).
  @discardableResult
  public func waitForProgress(_ count: Int, timeout: Double) -> Bool {
    let deadline = Date(timeIntervalSinceNow: timeout)
    lock.lock()
    defer { lock.unlock() }
    while linesWritten < count {
      if !lock.wait(until: deadline) { return linesWritten >= count }
    }
    return true
  }

  private func feed() {
    for line in lines {
      lock.lock()
      if stopped {
        lock.unlock()
        return
      }
      lock.unlock()
      let bytes = Array((line + "\r\n").utf8)
      _ = bytes.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
      // Drain what nobody read, so a stopped gpsd does not fill the terminal's buffer
      // with old sentences that a restarted one would then read as new.
      if !isGPSDRunning { drainSlave() }
      lock.lock()
      linesWritten += 1
      lock.broadcast()
      lock.unlock()
      usleep(useconds_t(interval * 1_000_000))
    }
  }

  private var isGPSDRunning: Bool {
    lock.lock()
    defer { lock.unlock() }
    return gpsd?.isRunning ?? false
  }

  private func drainSlave() {
    var buffer = [UInt8](repeating: 0, count: 4096)
    while buffer.withUnsafeMutableBytes({ read(slaveHolder, $0.baseAddress, $0.count) }) > 0 {}
  }

  /// Stops feeding, kills gpsd and closes the terminal. Safe to call twice.
  public func stop() {
    lock.lock()
    let wasStopped = stopped
    stopped = true
    lock.unlock()
    killGPSD()
    if !wasStopped {
      usleep(useconds_t(interval * 2_000_000))
      close(slaveHolder)
      close(master)
      try? FileManager.default.removeItem(at: gpsdOutput)
    }
  }

  deinit { stop() }
}
