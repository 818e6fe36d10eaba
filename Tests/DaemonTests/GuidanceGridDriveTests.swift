import Foundation
import TestSupport
import Testing

/// The grid drives are generated, not hand-edited: running the generator again gives the
/// committed files byte for byte.
@Suite("Grid drive fixtures", .requiresPython3)
struct GuidanceGridDriveTests {
  @Test("scripts/fixtures/grid_drive.py rewrites Fixtures/grid-drives byte for byte")
  func generatorIsDeterministic() throws {
    let output = try TestPaths.temporaryDirectory("grid-drives")
    defer { try? FileManager.default.removeItem(at: output) }
    let script = TestPaths.repositoryRoot.appendingPathComponent("scripts/fixtures/grid_drive.py")
    let outcome = try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", script.path, output.path])
    #expect(outcome.status == 0, "\(outcome.standardError)")
    let committed = TestPaths.fixtures.appendingPathComponent("grid-drives")
    let names = try FileManager.default.contentsOfDirectory(atPath: committed.path).sorted()
    #expect(
      names == [
        "grid-dispatch.json", "grid-dispatch.nmea", "grid-rejoin.json", "grid-rejoin.nmea", "grid-turn-off.json",
        "grid-turn-off.nmea", "grid-walk.json", "grid-walk.nmea", "grid-wander.json", "grid-wander.nmea",
      ])
    #expect(try FileManager.default.contentsOfDirectory(atPath: output.path).sorted() == names)
    for name in names {
      let fresh = try Data(contentsOf: output.appendingPathComponent(name))
      let kept = try Data(contentsOf: committed.appendingPathComponent(name))
      #expect(fresh == kept, "\(name) differs from what the generator writes")
    }
  }
}
