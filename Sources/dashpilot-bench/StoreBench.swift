// Store benchmarks: filled by their issue.
func runStoreBenchmarks(_ report: inout BenchReport) {}
