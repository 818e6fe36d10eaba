// `make bench`: one line per figure, `bench NAME VALUE UNIT`. Each area's benchmarks live
// in a file of their own. `dashpilot-bench AREA...` runs only the areas named (to rerun
// one figure while working on it); no argument runs them all.
import Foundation

let areas: [(String, (inout BenchReport) -> Void)] = [
  ("guidance", runGuidanceBenchmarks),
  ("store", runStoreBenchmarks),
  ("capture", runCaptureBenchmarks),
  ("truth", runTruthBenchmarks),
  ("stops", runStopsBenchmarks),
  ("routing", runRoutingBenchmarks),
  ("uplink", runUplinkBenchmarks),
  ("reliability", runReliabilityBenchmarks),
  ("daemon", runDaemonBenchmarks),
  ("e2e", runEndToEndCPUBenchmarks),
  ("wear", runStoreWearBenchmarks),
  ("report", runReportBenchmarks),
  ("year", runYearBenchmarks),
  ("retention", runRetentionBenchmarks),
  ("office", runOfficeBenchmarks),
]
if CommandLine.arguments.count == 4, CommandLine.arguments[1] == CaptureInstructionsBench.childFlag {
  exit(CaptureInstructionsChild.run(log: CommandLine.arguments[2], database: CommandLine.arguments[3]))
}
let chosen = Set(CommandLine.arguments.dropFirst())
if let unknown = chosen.first(where: { name in !areas.contains { $0.0 == name } }) {
  FileHandle.standardError.write(
    Data("dashpilot-bench: no area named \(unknown); the areas are \(areas.map(\.0).joined(separator: ", "))\n".utf8))
  exit(2)
}
var report = BenchReport()
for (name, run) in areas where chosen.isEmpty || chosen.contains(name) {
  run(&report)
}
