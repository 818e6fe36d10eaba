import Foundation
import PlatformSupport
import TestSupport
import Testing

@Suite(.requiresPython3) struct WallClockSynchronisationTests {
  /// The kernel's answer, asked independently through Python's ctypes.
  static func kernelSaysSynchronised() throws -> Bool {
    let python = Process()
    python.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
    python.arguments = [
      "-c",
      "import ctypes; b = ctypes.create_string_buffer(512); print(ctypes.CDLL(None).adjtimex(b))",
    ]
    let pipe = Pipe()
    python.standardOutput = pipe
    try python.run()
    let output = pipe.fileHandleForReading.readDataToEndOfFile()
    python.waitUntilExit()
    let state = try #require(
      Int(String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)))
    return state >= 0 && state != 5
  }

  @Test func agreesWithTheKernelAskedAnotherWay() throws {
    #expect(WallClockSynchronisation.isSynchronised() == (try Self.kernelSaysSynchronised()))
  }
}
