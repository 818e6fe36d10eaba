import ControlProtocol
import Foundation
import TestSupport
import Testing

/// The fuzzer's seed corpus and its property, run without libFuzzer so `make test` checks
/// them: the harness binary itself (built without the sanitizer it checks files), and the
/// parser's verdict on each seed.
@Suite struct RequestFuzzCorpusTests {
  static let corpus = TestPaths.repositoryRoot.appendingPathComponent("scripts/fuzz/corpus")

  static func seeds() throws -> [(name: String, bytes: [UInt8])] {
    try FileManager.default.contentsOfDirectory(atPath: corpus.path).sorted().map { name in
      (name, Array(try Data(contentsOf: corpus.appendingPathComponent(name))))
    }
  }

  @Test func theHarnessBinaryPassesTheCorpusAndSeededMutationsOfIt() throws {
    let harness = try DaemonBinaries.url("dashpilot-fuzz-request")
    let count = try Self.seeds().count
    let plain = try ProcessRunner.run(harness, [Self.corpus.path])
    #expect(plain.status == 0)
    #expect(plain.standardOutput == "checked \(count) inputs, 0 violations\n")
    let mutated = try ProcessRunner.run(harness, ["--mutate", "30000", "2026", Self.corpus.path], timeout: 120)
    #expect(mutated.status == 0, "\(mutated.standardOutput)")
    #expect(mutated.standardOutput == "checked \(count + 30_000) inputs, 0 violations\n")
  }

  @Test func theHarnessReportsAViolationAndFailsOnBadUsage() throws {
    let harness = try DaemonBinaries.url("dashpilot-fuzz-request")
    let usage = try ProcessRunner.run(harness, [])
    #expect(usage.status == 2)
    #expect(usage.standardError.hasPrefix("usage: dashpilot-fuzz-request"))
    let missing = try ProcessRunner.run(harness, ["/nonexistent/seed"])
    #expect(missing.status == 2)
    #expect(missing.standardError == "no such file or directory: /nonexistent/seed\n")
  }

  /// Each seed's verdict: valid seeds parse and survive their own wire form; each invalid
  /// one is refused with the code that names what is wrong with it.
  @Test func everySeedGetsItsExpectedVerdict() throws {
    let expected: [String: ControlError.Code?] = [
      "valid-status": nil, "valid-status-crlf": nil, "valid-shift-start": nil, "valid-shift-end": nil,
      "valid-shifts-limit": nil, "valid-shift-show": nil, "valid-export": nil, "valid-import": nil,
      "valid-route-load": nil, "valid-route-clear": nil, "valid-navigate": nil, "valid-events": nil,
      "valid-job-assign-all": nil, "valid-shift-resend": nil, "valid-fine-time": nil, "invalid-job-list": .badArguments,
      "invalid-garbage": .notJSON, "invalid-empty": .notJSON, "invalid-array": .badRequest,
      "invalid-no-version": .badRequest, "invalid-version-2": .unsupportedVersion,
      "invalid-version-string": .unsupportedVersion, "invalid-fraction-id": .badRequest,
      "invalid-huge-id": .badRequest, "invalid-unknown-command": .unknownCommand,
      "invalid-extra-field": .badRequest, "invalid-args-array": .badArguments,
      "invalid-extra-argument": .badArguments, "invalid-limit-range": .badArguments,
      "invalid-negative-shift": .badArguments, "invalid-latitude": .badArguments,
      "invalid-point-time": .badArguments, "invalid-point-accuracy": .badArguments,
      "invalid-mode": .badArguments, "invalid-long-name": .badArguments, "invalid-truncated": .notJSON,
      "invalid-nesting": .notJSON, "invalid-lone-surrogate": .notJSON, "invalid-binary": .notJSON,
      "invalid-two-lines": .notJSON,
    ]
    let seeds = try Self.seeds()
    #expect(Set(seeds.map(\.name)) == Set(expected.keys))
    for (name, bytes) in seeds {
      switch RequestParser.parse(bytes) {
      case .success(let request):
        #expect(expected[name] == .some(nil), "\(name) parsed as \(request)")
        var line = request.encodedLine()
        line.removeLast()
        #expect(try RequestParser.parse(line).get() == request, "\(name) does not survive its wire form")
      case .failure(let failure):
        #expect(
          expected[name] == .some(failure.error.code),
          "\(name) refused with \(failure.error.code): \(failure.error.message)")
      }
    }
  }
}
