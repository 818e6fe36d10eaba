import Foundation

/// The gpsd this machine has (Debian 12's 3.22, Debian 13's 3.25 in its build root): what it
/// says it is, and what it makes of an NMEA recording. A suite compares what capture did
/// through a live gpsd with these, so it holds on every release's gpsd.
public enum InstalledGPSD {
  public struct Failure: Error, CustomStringConvertible {
    public var description: String
  }

  /// The release `gpsd -V` names ("3.22", "3.25").
  public static func release() throws -> String {
    let text = try run("/usr/sbin/gpsd", ["-V"])
    // "gpsd: 3.25 (revision 3.25)"
    guard let word = text.split(separator: " ").dropFirst().first else {
      throw Failure(description: "gpsd -V said \"\(text)\"")
    }
    return String(word)
  }

  /// gpsd's JSON of `nmea`, as `gpsfake -1 -p -q -c 0.001` prints it (its JSON lines only):
  /// what replay of a `gpspipe -w` log of this receiver on this gpsd reads.
  /// gpsfake is started as `GPSDFake` starts it (`GPSDChildProcess`: with no signal blocked,
  /// or it never ends its pass) and must end within `timeout` seconds.
  public static func json(of nmea: URL, timeout: Double = 120) throws -> String {
    let directory = try TestPaths.temporaryDirectory("gpsfake-json")
    defer { try? FileManager.default.removeItem(at: directory) }
    let output = directory.appendingPathComponent("gpsfake.out")
    let gpsfake = try GPSDChildProcess(
      executable: "/usr/bin/gpsfake", arguments: ["-1", "-p", "-q", "-c", "0.001", nmea.path], outputPath: output.path)
    let deadline = Date(timeIntervalSinceNow: timeout)
    while gpsfake.isRunning {
      guard Date() < deadline else {
        gpsfake.killGroup()
        throw Failure(description: "gpsfake -1 -p did not end its pass of \(nmea.path) within \(timeout) s")
      }
      usleep(50_000)
    }
    let text = try String(contentsOf: output, encoding: .utf8)
    return text.split(whereSeparator: \.isNewline).filter { $0.hasPrefix("{") }.joined(separator: "\n") + "\n"
  }

  private static func run(_ executable: String, _ arguments: [String]) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw Failure(
        description: "\(executable) \(arguments.joined(separator: " ")) exited with \(process.terminationStatus)")
    }
    return String(decoding: data, as: UTF8.self)
  }
}
