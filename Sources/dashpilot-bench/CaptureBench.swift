// Capture benchmarks: filled by their issue.
func runCaptureBenchmarks(_ report: inout BenchReport) {}
