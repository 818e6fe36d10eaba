import Foundation

/// The executable's entry point. Built for fuzzing (`-sanitize=fuzzer -DFUZZING`, see
/// scripts/fuzz/run.sh) it hands the command line to libFuzzer's driver: SwiftPM links an
/// executable with its own `main`, so libFuzzer's `main` is never pulled in and
/// `LLVMFuzzerRunDriver` is called instead.
///
/// A normal `swift build` (and `make test`) has no libFuzzer: then it runs the same check
/// over files, so the target always builds and a test can check the corpus.
///
///     dashpilot-fuzz-request FILE_OR_DIRECTORY...
///     dashpilot-fuzz-request --mutate COUNT SEED FILE_OR_DIRECTORY...
///
/// `--mutate` also checks COUNT seeded random mutations of the inputs (byte flips,
/// insertions, deletions, splices), a poor man's fuzzer that needs no sanitizer runtime.
/// Prints `checked N inputs` and exits 0, or prints each violation and exits 1.
@main
struct FuzzFileRunner {
  static func main() {
    #if FUZZING
      exit(LibFuzzerDriver.run())
    #else
      runOnFiles()
    #endif
  }

  static func runOnFiles() {
    var arguments = Array(CommandLine.arguments.dropFirst())
    var mutations = 0
    var seed: UInt64 = 1
    if arguments.first == "--mutate" {
      guard arguments.count >= 3, let count = Int(arguments[1]), count >= 0, let value = UInt64(arguments[2]) else {
        fail("usage: dashpilot-fuzz-request [--mutate COUNT SEED] FILE_OR_DIRECTORY...")
      }
      mutations = count
      seed = value
      arguments.removeFirst(3)
    }
    guard !arguments.isEmpty else { fail("usage: dashpilot-fuzz-request [--mutate COUNT SEED] FILE_OR_DIRECTORY...") }
    let inputs = arguments.flatMap(files(at:)).compactMap { url -> (String, [UInt8])? in
      guard let data = FileManager.default.contents(atPath: url.path) else {
        fail("cannot read \(url.path)")
      }
      return (url.lastPathComponent, Array(data))
    }
    var violations = 0
    func check(_ name: String, _ bytes: [UInt8]) {
      if let violation = RequestRoundTrip.violation(of: bytes) {
        violations += 1
        print("violation \(name): \(violation)")
      }
    }
    for (name, bytes) in inputs { check(name, bytes) }
    var mutator = InputMutator(seed: seed)
    if !inputs.isEmpty {
      for round in 0..<mutations {
        let (name, bytes) = inputs[round % inputs.count]
        let other = inputs[Int(mutator.next() % UInt64(inputs.count))].1
        check("\(name)#\(round)", mutator.mutate(bytes, splicingWith: other))
      }
    }
    print("checked \(inputs.count + (inputs.isEmpty ? 0 : mutations)) inputs, \(violations) violations")
    exit(violations == 0 ? 0 : 1)
  }

  static func files(at path: String) -> [URL] {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      fail("no such file or directory: \(path)")
    }
    guard isDirectory.boolValue else { return [URL(fileURLWithPath: path)] }
    let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
    return names.sorted().map { URL(fileURLWithPath: path).appendingPathComponent($0) }
  }

  static func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    exit(2)
  }
}
