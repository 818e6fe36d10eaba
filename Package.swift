// swift-tools-version:6.0
// DashPilot for Linux: a GPS capture daemon for in-vehicle boxes. No outside Swift
// packages: everything is Foundation, Dispatch, Glibc and Debian's C libraries.
import PackageDescription

let package = Package(
  name: "DashPilot",
  platforms: [.macOS(.v13)],
  products: [
    .executable(name: "dashpilotd", targets: ["dashpilotd"]),
    .executable(name: "dashpilotctl", targets: ["dashpilotctl"]),
  ],
  targets: [
    // C libraries from Debian, each a module map over a one-line shim header.
    .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
    .systemLibrary(name: "CGPS", pkgConfig: "libgps", providers: [.apt(["libgps-dev"])]),
    .systemLibrary(name: "CSystemd", pkgConfig: "libsystemd", providers: [.apt(["libsystemd-dev"])]),
    .systemLibrary(name: "CInih", pkgConfig: "inih", providers: [.apt(["libinih-dev"])]),
    // libcurl's headers (libcurl4-openssl-dev); the library itself is loaded on the first
    // HTTP request (Sources/CCurl/CurlLoader.c), not linked.
    .target(name: "CCurl", linkerSettings: [.linkedLibrary("dl")]),
    .systemLibrary(
      name: "CMosquitto", pkgConfig: "libmosquitto", providers: [.apt(["libmosquitto-dev"])]),

    // The pure core: no I/O, no clock.
    .target(name: "DashPilotCore"),
    .target(name: "Guidance", dependencies: ["DashPilotCore"]),
    .target(name: "RouteFiles", dependencies: ["DashPilotCore"]),

    // Adapters at the edge. Route files (GPX, GeoJSON) are read and written by the client,
    // so the daemon never links an XML parser.
    // Locks, threads and text helpers over Glibc, so that the daemon's modules import only
    // FoundationEssentials and the daemon never links Foundation, CoreFoundation or ICU.
    .target(name: "PlatformSupport"),
    .target(name: "Store", dependencies: ["CSQLite", "DashPilotCore"]),
    .target(name: "GPSD", dependencies: ["CGPS", "DashPilotCore", "PlatformSupport"]),
    .target(name: "Capture", dependencies: ["DashPilotCore", "Guidance", "Store", "GPSD", "PlatformSupport"]),
    .target(name: "ControlProtocol", dependencies: ["DashPilotCore"]),
    .target(name: "Routing", dependencies: ["Guidance", "CCurl"]),
    .target(
      name: "Uplink", dependencies: ["CMosquitto", "ControlProtocol", "DashPilotCore", "PlatformSupport", "Store"]),
    .target(
      name: "Daemon",
      dependencies: [
        "DashPilotCore", "Guidance", "Store", "GPSD", "Capture", "ControlProtocol", "Routing",
        "Uplink", "CSystemd", "CInih", "PlatformSupport",
      ]),
    .target(
      name: "DashPilotCLI",
      dependencies: ["DashPilotCore", "Capture", "ControlProtocol", "RouteFiles", "Guidance", "PlatformSupport"]),

    // Thin mains.
    .executableTarget(name: "dashpilotd", dependencies: ["Daemon"]),
    .executableTarget(name: "dashpilotctl", dependencies: ["DashPilotCLI"]),
    // The store's crash test runs this as a child process and kills it mid-write.
    .executableTarget(name: "dashpilot-store-child", dependencies: ["Store", "TestSupport"]),
    // The reliability power-cut test runs this as a child: a gpsd log captured in real
    // time into the store, killed with SIGKILL at random points.
    .executableTarget(
      name: "dashpilot-capture-child",
      dependencies: ["Capture", "Store", "GPSD", "DashPilotCore", "TestSupport"]),
    // libFuzzer on the control request parser (`make fuzz`); without -sanitize=fuzzer it
    // checks files, so a plain build builds it too.
    .executableTarget(name: "dashpilot-fuzz-request", dependencies: ["ControlProtocol"]),
    .executableTarget(
      name: "dashpilot-bench",
      dependencies: [
        "DashPilotCore", "Guidance", "Store", "GPSD", "Capture", "Routing", "Uplink", "TestSupport",
      ]),

    // Tests.
    .target(name: "TestSupport", dependencies: ["DashPilotCore"]),
    .testTarget(name: "DashPilotCoreTests", dependencies: ["DashPilotCore", "TestSupport"]),
    .testTarget(name: "GuidanceTests", dependencies: ["Guidance", "Capture", "GPSD", "TestSupport"]),
    .testTarget(name: "RouteFilesTests", dependencies: ["RouteFiles", "TestSupport"]),
    .testTarget(name: "PlatformSupportTests", dependencies: ["PlatformSupport"]),
    .testTarget(name: "StoreTests", dependencies: ["Store", "TestSupport"]),
    .testTarget(name: "GPSDTests", dependencies: ["GPSD", "TestSupport"]),
    .testTarget(name: "CaptureTests", dependencies: ["Capture", "TestSupport"]),
    .testTarget(name: "RoutingTests", dependencies: ["Routing", "TestSupport"]),
    .testTarget(name: "ControlProtocolTests", dependencies: ["ControlProtocol", "DashPilotCore"]),
    .testTarget(
      name: "DashPilotCLITests", dependencies: ["DashPilotCLI", "Capture", "DashPilotCore", "Guidance", "TestSupport"]),
    .testTarget(name: "UplinkTests", dependencies: ["Uplink", "Store", "DashPilotCore", "TestSupport"]),
    .testTarget(
      name: "DaemonTests",
      dependencies: ["Daemon", "DashPilotCLI", "Uplink", "Store", "CSQLite", "TestSupport"]),
    .testTarget(
      name: "ReliabilityTests",
      dependencies: ["DashPilotCore", "Capture", "Store", "GPSD", "ControlProtocol", "TestSupport"]),
  ],
  swiftLanguageModes: [.v6]
)
