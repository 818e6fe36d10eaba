// Guidance benchmarks: filled by their issue.
func runGuidanceBenchmarks(_ report: inout BenchReport) {}
