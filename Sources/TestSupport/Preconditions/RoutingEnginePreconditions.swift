import Foundation

/// Whether the routing engines' start scripts could start one here: they install the
/// engine from PyPI when it is missing, so what the machine must have is the Python they
/// need (with pip). The scripts' own `--check` decides, so the rule lives in one place.
public enum RoutingEnginePreconditions {
  public static let valhalla = check("scripts/valhalla/start.sh", engine: "Valhalla")
  public static let osrm = check("scripts/osrm/start.sh", engine: "OSRM")

  static func check(_ script: String, engine: String) -> TestPrecondition {
    let path = TestPaths.repositoryRoot.appendingPathComponent(script).path
    guard let outcome = try? ProcessRunner.run(URL(fileURLWithPath: "/bin/bash"), [path, "--check"], timeout: 60)
    else { return TestPrecondition(unmet: "needs bash to run \(script) --check") }
    guard outcome.status != 0 else { return TestPrecondition(unmet: nil) }
    let reason = outcome.standardError.split(separator: "\n").last.map(String.init) ?? "exit \(outcome.status)"
    return TestPrecondition(unmet: "\(engine) cannot be started (\(script) --check): \(reason)")
  }
}
