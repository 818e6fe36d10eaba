// swift-tools-version:6.0
// The gpsd suites on another release's gpsd and libgps (scripts/targets/gpsd-test.sh): this
// manifest stands in for the package's own, in a build root's view of the repository only,
// so that its compiler builds the package's gpsd reader, capture and their tests from the
// repository's own sources, against that release's libgps, and nothing else. Each target
// is declared as Package.swift declares it.
import PackageDescription

let package = Package(
  name: "DashPilot",
  targets: [
    .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
    .systemLibrary(name: "CGPS", pkgConfig: "libgps", providers: [.apt(["libgps-dev"])]),
    .target(name: "CLinux"),
    .target(name: "DashPilotCore"),
    .target(name: "Guidance", dependencies: ["DashPilotCore"]),
    .target(name: "PlatformSupport", dependencies: ["CLinux"]),
    .target(name: "Store", dependencies: ["CSQLite", "DashPilotCore"]),
    .target(name: "GPSD", dependencies: ["CGPS", "DashPilotCore", "PlatformSupport"]),
    .target(name: "Capture", dependencies: ["DashPilotCore", "GPSD", "Guidance", "PlatformSupport", "Store"]),
    .target(name: "TestSupport", dependencies: ["DashPilotCore"]),
    // Every suite of the gpsd reader: its decoder on gpsd's own lines and its source against
    // a real gpsd fed by gpsfake.
    .testTarget(name: "GPSDTests", dependencies: ["DashPilotCore", "GPSD", "PlatformSupport", "TestSupport"]),
    // The capture suites that read a real gpsd: a drive captured live through libgps, and a
    // GGA-only receiver recorded with gpspipe and replayed, judged by the truth cases.
    .testTarget(
      name: "CaptureTests",
      dependencies: ["Capture", "DashPilotCore", "GPSD", "Guidance", "PlatformSupport", "Store", "TestSupport"],
      sources: ["LiveCaptureTests.swift", "GGAOnlyReplayTests.swift", "TruthTests.swift"]),
  ],
  swiftLanguageModes: [.v6]
)
