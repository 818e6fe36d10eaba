// `make bench`: one line per figure, `bench NAME VALUE UNIT`. Each area's benchmarks live
// in a file of their own.
import Foundation

var report = BenchReport()
runGuidanceBenchmarks(&report)
runStoreBenchmarks(&report)
runCaptureBenchmarks(&report)
runRoutingBenchmarks(&report)
runUplinkBenchmarks(&report)
runReliabilityBenchmarks(&report)
runDaemonBenchmarks(&report)
