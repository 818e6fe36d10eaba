import Foundation
import TestSupport

/// A one-function library, built with the system C compiler, that answers adjtimex(2) with
/// TIME_OK: preloaded into dashpilotd (after libfaketime has moved its wall clock), the
/// daemon takes that wall clock for one the kernel keeps synchronised, so it judges fix ages
/// by it (`WallClockSynchronisation` looks adjtimex up with dlsym, which finds a preloaded
/// definition first). The machine's clock is not synchronised here, and a test must not
/// change it.
enum SynchronisedClockShim {
  struct Failure: Error, CustomStringConvertible { var description: String }

  static let source = """
    /* adjtimex(2) as a synchronised kernel answers a read: TIME_OK, nothing changed. */
    #include <sys/timex.h>
    int adjtimex(struct timex *buffer) { (void)buffer; return TIME_OK; }
    """

  /// The same for a kernel whose clock is not synchronised: TIME_ERROR, whatever the
  /// machine's own clock is.
  static let unsynchronisedSource = """
    /* adjtimex(2) as an unsynchronised kernel answers a read: TIME_ERROR, nothing changed. */
    #include <sys/timex.h>
    int adjtimex(struct timex *buffer) { (void)buffer; return TIME_ERROR; }
    """

  /// Builds the library in `directory` and returns its path; `synchronised: false` builds
  /// the one that says the clock is not.
  static func build(in directory: URL, synchronised: Bool = true) throws -> String {
    let name = synchronised ? "synchronised-clock" : "unsynchronised-clock"
    let sourceFile = directory.appendingPathComponent("\(name).c")
    let library = directory.appendingPathComponent("lib\(name).so")
    try (synchronised ? source : unsynchronisedSource).write(to: sourceFile, atomically: true, encoding: .utf8)
    guard let compiler = CCompiler.path else { throw Failure(description: "no C compiler (cc, gcc or clang)") }
    let outcome = try ProcessRunner.run(
      URL(fileURLWithPath: compiler), ["-shared", "-fPIC", "-O2", "-o", library.path, sourceFile.path],
      timeout: 60)
    guard outcome.status == 0 else {
      throw Failure(description: "cc failed (\(outcome.status)): \(outcome.standardError)")
    }
    return library.path
  }
}
