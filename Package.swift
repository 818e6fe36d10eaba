// swift-tools-version:6.0
// DashPilot for Linux: a GPS capture daemon for in-vehicle boxes. No outside Swift
// packages: everything is FoundationEssentials, Dispatch, Glibc and Debian's C libraries
// (the tests use Foundation too).
import PackageDescription

let package = Package(
  name: "DashPilot",
  platforms: [.macOS(.v13)],
  products: [
    .executable(name: "dashpilotd", targets: ["dashpilotd"]),
    .executable(name: "dashpilotctl", targets: ["dashpilotctl"]),
    .executable(name: "dashpilot-route-reader", targets: ["dashpilot-route-reader"]),
    .executable(name: "dashpilot-officed", targets: ["dashpilot-officed"]),
  ],
  targets: [
    // C libraries from Debian, each a module map over a one-line shim header.
    .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
    .systemLibrary(name: "CGPS", pkgConfig: "libgps", providers: [.apt(["libgps-dev"])]),
    .systemLibrary(name: "CSystemd", pkgConfig: "libsystemd", providers: [.apt(["libsystemd-dev"])]),
    .systemLibrary(name: "CInih", pkgConfig: "inih", providers: [.apt(["libinih-dev"])]),
    .systemLibrary(name: "CLibXML2", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),
    // libcurl's headers (libcurl4-openssl-dev); the library itself is loaded on the first
    // HTTP request (Sources/CCurl/CurlLoader.c), not linked.
    .target(name: "CCurl", linkerSettings: [.linkedLibrary("dl")]),
    // Linux calls Glibc's module cannot reach (ioprio_set: the store's background check
    // reads at idle I/O priority).
    .target(name: "CLinux"),
    .systemLibrary(
      name: "CMosquitto", pkgConfig: "libmosquitto", providers: [.apt(["libmosquitto-dev"])]),

    // The pure core: no I/O, no clock.
    .target(name: "DashPilotCore"),
    .target(name: "Guidance", dependencies: ["DashPilotCore"]),
    // A shift drawn as one self-contained SVG: the report answer in, text out (dashpilotctl
    // and dashpilot-officed write it).
    .target(name: "ShiftReport", dependencies: ["ControlProtocol", "DashPilotCore"]),
    // The report's words from a shift's answer, in the reader's time zone (which is read, so
    // this is not the pure renderer): shared by dashpilotctl and dashpilot-officed.
    .target(name: "ReportBuilding", dependencies: ["ControlProtocol", "DashPilotCore", "ShiftReport"]),

    // Adapters at the edge; each target lists exactly the modules it imports.
    // Threads, a condition, the command-line cursor and text helpers over Glibc, so that
    // every module imports only FoundationEssentials and no executable links Foundation,
    // CoreFoundation or ICU.
    .target(name: "PlatformSupport", dependencies: ["CLinux"]),
    // The configuration file as libinih reads it, each entry with its line: dashpilotd's and
    // dashpilot-officed's files are read the same way.
    .target(name: "ConfigurationFile", dependencies: ["CInih", "PlatformSupport"]),
    // Route files (GPX, GeoJSON): GPX read with libxml2 directly, GeoJSON with
    // FoundationEssentials' decoder; by the client, and by dashpilot-route-reader, never by
    // the daemon, so the daemon never links an XML parser.
    .target(name: "RouteFiles", dependencies: ["CLibXML2", "DashPilotCore", "PlatformSupport"]),
    .target(name: "Store", dependencies: ["CSQLite", "DashPilotCore"]),
    .target(name: "GPSD", dependencies: ["CGPS", "DashPilotCore", "PlatformSupport"]),
    .target(name: "Capture", dependencies: ["DashPilotCore", "GPSD", "Guidance", "PlatformSupport", "Store"]),
    .target(name: "ControlProtocol", dependencies: ["DashPilotCore"]),
    .target(name: "Routing", dependencies: ["CCurl", "DashPilotCore", "Guidance"]),
    .target(
      name: "Uplink", dependencies: ["CMosquitto", "ControlProtocol", "DashPilotCore", "PlatformSupport", "Store"]),
    .target(
      name: "Daemon",
      dependencies: [
        "CSystemd", "Capture", "ConfigurationFile", "ControlProtocol", "DashPilotCore", "GPSD", "Guidance",
        "PlatformSupport", "Routing", "Store", "Uplink",
      ]),
    .target(
      name: "DashPilotCLI",
      dependencies: [
        "Capture", "ControlProtocol", "DashPilotCore", "Guidance", "PlatformSupport", "ReportBuilding", "RouteFiles",
        "ShiftReport",
      ]),

    // Thin mains.
    .executableTarget(name: "dashpilotd", dependencies: ["Daemon"]),
    // Also the route reader, when called by that name (the package's link to it).
    .executableTarget(name: "dashpilotctl", dependencies: ["DashPilotCLI", "RouteFiles"]),
    // The route a fleet command sends inline (`route.load` with `args.gpx`), read by the
    // CLI's reader in a process of its own: dashpilotd runs it as a child, so the daemon
    // judges the text with the CLI's words without mapping libxml2. (The package installs
    // dashpilotctl under this name, which runs the same RouteReaderProgram.)
    .executableTarget(name: "dashpilot-route-reader", dependencies: ["RouteFiles"]),
    // The store's crash test runs this as a child process and kills it mid-write.
    .executableTarget(name: "dashpilot-store-child", dependencies: ["DashPilotCore", "Store", "TestSupport"]),
    // The reliability power-cut test runs this as a child: a gpsd log captured in real
    // time into the store, killed with SIGKILL at random points.
    .executableTarget(
      name: "dashpilot-capture-child",
      dependencies: ["Capture", "DashPilotCore", "GPSD", "PlatformSupport", "Store", "TestSupport"]),
    // libFuzzer on the control request parser (`make fuzz`); without -sanitize=fuzzer it
    // checks files, so a plain build builds it too.
    .executableTarget(name: "dashpilot-fuzz-request", dependencies: ["ControlProtocol"]),
    // Histories of months or years of shifts, written through the store's own code, for the
    // benchmarks and tests of a box that has recorded for a long time (scripts/history).
    .target(name: "HistoryGenerator", dependencies: ["Capture", "DashPilotCore", "Store"]),
    .executableTarget(name: "dashpilot-history", dependencies: ["HistoryGenerator"]),
    .executableTarget(
      name: "dashpilot-bench",
      dependencies: [
        "Capture", "DashPilotCore", "GPSD", "Guidance", "HistoryGenerator", "Office", "OfficeLoad", "PlatformSupport",
        "Routing", "Store", "TestSupport", "Uplink",
      ]),

    // The office (issue 39): every box's messages from the broker into PostgreSQL/PostGIS.
    // OfficeCore is pure (MQTT 5's packets, the judging of a message, the rows it makes);
    // Office holds the adapters (libpq, the broker's socket, the worker processes).
    .systemLibrary(name: "CPostgres", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
    .target(name: "OfficeCore", dependencies: ["ControlProtocol", "DashPilotCore"]),
    .target(
      name: "Office",
      dependencies: [
        "CPostgres", "CSystemd", "ConfigurationFile", "ControlProtocol", "DashPilotCore", "OfficeCore",
        "PlatformSupport", "ReportBuilding", "ShiftReport",
      ]),
    .executableTarget(name: "dashpilot-officed", dependencies: ["Office"]),
    // Boxes simulated for the office's tests and benchmark: the box's own encoder, published
    // at QoS 1 over the office's MQTT connection.
    .target(name: "OfficeLoad", dependencies: ["DashPilotCore", "Office", "OfficeCore", "PlatformSupport", "Uplink"]),

    // Tests.
    .target(name: "TestSupport", dependencies: ["DashPilotCore"]),
    .testTarget(name: "DashPilotCoreTests", dependencies: ["DashPilotCore", "TestSupport"]),
    .testTarget(name: "GuidanceTests", dependencies: ["Capture", "DashPilotCore", "GPSD", "Guidance", "TestSupport"]),
    .testTarget(name: "RouteFilesTests", dependencies: ["DashPilotCore", "RouteFiles", "TestSupport"]),
    .testTarget(name: "ShiftReportTests", dependencies: ["DashPilotCore", "ShiftReport", "TestSupport"]),
    .testTarget(name: "PlatformSupportTests", dependencies: ["PlatformSupport", "TestSupport"]),
    .testTarget(name: "StoreTests", dependencies: ["CSQLite", "DashPilotCore", "Store", "TestSupport"]),
    .testTarget(
      name: "HistoryGeneratorTests", dependencies: ["DashPilotCore", "HistoryGenerator", "Store", "TestSupport"]),
    .testTarget(name: "GPSDTests", dependencies: ["DashPilotCore", "GPSD", "PlatformSupport", "TestSupport"]),
    .testTarget(
      name: "CaptureTests",
      dependencies: ["Capture", "DashPilotCore", "GPSD", "Guidance", "PlatformSupport", "Store", "TestSupport"]),
    .testTarget(name: "RoutingTests", dependencies: ["DashPilotCore", "Guidance", "Routing", "TestSupport"]),
    .testTarget(name: "ControlProtocolTests", dependencies: ["ControlProtocol", "DashPilotCore"]),
    .testTarget(
      name: "DashPilotCLITests",
      dependencies: ["Capture", "DashPilotCLI", "DashPilotCore", "Guidance", "PlatformSupport", "TestSupport"]),
    .testTarget(
      name: "UplinkTests",
      dependencies: ["ControlProtocol", "DashPilotCore", "PlatformSupport", "Store", "TestSupport", "Uplink"]),
    .testTarget(
      name: "DaemonTests",
      dependencies: [
        "CSQLite", "Capture", "ConfigurationFile", "ControlProtocol", "Daemon", "DashPilotCLI", "DashPilotCore", "GPSD",
        "Guidance",
        "PlatformSupport", "RouteFiles", "Routing", "ShiftReport", "Store", "TestSupport", "Uplink",
      ]),
    .testTarget(
      name: "OfficeTests",
      dependencies: [
        "ControlProtocol", "DashPilotCore", "Office", "OfficeCore", "OfficeLoad", "PlatformSupport", "TestSupport",
        "Uplink",
      ]),
    .testTarget(
      name: "ReliabilityTests",
      dependencies: ["Capture", "ControlProtocol", "DashPilotCore", "GPSD", "Store", "TestSupport"]),
  ],
  swiftLanguageModes: [.v6]
)
