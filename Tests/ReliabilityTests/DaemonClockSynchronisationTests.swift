import Foundation
import TestSupport
import Testing

/// The real dashpilotd says when the box's clock is not synchronised: the kernel's word
/// (adjtimex), here answered by a preloaded one-function library whose answer a file
/// decides (the machine's own clock is left alone): in `status` and `status --json`, and
/// in the log at start-up and at each change, once.
@Suite("the clock's synchronisation in dashpilotd", .serialized)
struct DaemonClockSynchronisationTests {
  /// adjtimex answering TIME_OK while the file DASHPILOT_TEST_SYNCHRONISED names exists,
  /// TIME_ERROR otherwise.
  static let source = """
    /* adjtimex(2) as a kernel answers a read, synchronised while a file exists. */
    #include <stdlib.h>
    #include <sys/timex.h>
    #include <unistd.h>
    int adjtimex(struct timex *buffer) {
      (void)buffer;
      const char *path = getenv("DASHPILOT_TEST_SYNCHRONISED");
      return path != NULL && access(path, F_OK) == 0 ? TIME_OK : TIME_ERROR;
    }
    """

  static let notAtStart =
    "the system clock is not synchronised (the kernel says so): fixes that come without a date are not dated "
    + "by their arrival meanwhile, and shift times are read from a clock that may be wrong: give the box a time "
    + "source (without a real-time clock, the receiver: /usr/share/doc/dashpilot/examples/chrony-gpsd.conf)"
  static let gained = "the system clock is synchronised now (the kernel says so)"
  static let lost = "the system clock is no longer synchronised (the kernel says so): "
  static let statusLine =
    "clock      not synchronised (the kernel says so): shift times, and fixes that come without a date, "
    + "read a clock that may be wrong"

  static func waitFor(_ daemon: DaemonUnderTest, _ condition: (DaemonUnderTest) -> Bool) -> Bool {
    let deadline = Date(timeIntervalSinceNow: 15)
    repeat {
      if condition(daemon) { return true }
      usleep(100_000)
    } while Date() < deadline
    return false
  }

  static func lines(_ daemon: DaemonUnderTest, containing text: String) -> Int {
    daemon.log.split(separator: "\n").filter { $0.contains(text) }.count
  }

  static func clockSynchronised(_ daemon: DaemonUnderTest) throws -> Bool? {
    try daemon.controlJSON(["status"]).object("daemon")?["clock_synchronised"] as? Bool
  }

  @Test("not synchronised at start, synchronised, lost again: said once each, and status follows", .requiresCCompiler)
  func everyChangeIsSaidOnce() throws {
    let directory = try TestPaths.temporaryDirectory("daemon-clock")
    defer { try? FileManager.default.removeItem(at: directory) }
    let sourceFile = directory.appendingPathComponent("clock.c")
    let library = directory.appendingPathComponent("libclock.so")
    try Self.source.write(to: sourceFile, atomically: true, encoding: .utf8)
    let compiler = try #require(CCompiler.path)
    let built = try ProcessRunner.run(
      URL(fileURLWithPath: compiler), ["-shared", "-fPIC", "-O2", "-o", library.path, sourceFile.path], timeout: 60)
    try #require(built.status == 0, "\(built.standardError)")
    let flag = directory.appendingPathComponent("synchronised")
    let daemon = try DaemonUnderTest(
      arguments: ["--gpsd", "127.0.0.1:1"],
      environment: ["LD_PRELOAD": library.path, "DASHPILOT_TEST_SYNCHRONISED": flag.path])
    defer { daemon.stop() }
    try daemon.waitUntilReady()

    #expect(Self.waitFor(daemon) { Self.lines($0, containing: Self.notAtStart) == 1 }, "\(daemon.log)")
    #expect(try Self.clockSynchronised(daemon) == false)
    #expect(try daemon.control(["status"]).standardOutput.split(separator: "\n").contains { $0 == Self.statusLine })

    FileManager.default.createFile(atPath: flag.path, contents: nil)
    #expect(Self.waitFor(daemon) { Self.lines($0, containing: Self.gained) == 1 }, "\(daemon.log)")
    #expect(try Self.clockSynchronised(daemon) == true)
    #expect(try !daemon.control(["status"]).standardOutput.contains("clock      "))

    try FileManager.default.removeItem(at: flag)
    #expect(Self.waitFor(daemon) { Self.lines($0, containing: Self.lost) == 1 }, "\(daemon.log)")
    #expect(try Self.clockSynchronised(daemon) == false)
    // Three seconds more: nothing is said again while nothing changes.
    usleep(3_000_000)
    #expect(Self.lines(daemon, containing: "the system clock is") == 3, "\(daemon.log)")
  }
}
