import DashPilotCore

// The few functions of the C library's mathematics Guidance uses, through the core's
// `Trigonometry`, so no Guidance file imports Glibc.
@inline(__always) func cos(_ x: Double) -> Double { Trigonometry.cos(x) }
@inline(__always) func exp(_ x: Double) -> Double { Trigonometry.exp(x) }
