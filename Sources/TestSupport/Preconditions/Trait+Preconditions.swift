#if canImport(Testing)
  import Testing

  /// The preconditions a test can name. Each is checked once per test process; see
  /// `TestPrecondition` for what an unmet one does (a visible skip, a failure under CI).
  extension Trait where Self == ConditionTrait {
    /// Root: running a client as another user, mounting.
    public static var requiresRoot: Self { MachinePreconditions.root.trait }
    /// A small tmpfs that a test fills to the last block (root, and a kernel that lets us mount).
    public static var requiresTmpfs: Self { MachinePreconditions.tmpfs.trait }
    /// libfaketime, to give one process a wall clock of its own.
    public static var requiresFaketime: Self { MachinePreconditions.faketime.trait }
    /// A C compiler, for the small libraries a test preloads.
    public static var requiresCCompiler: Self { MachinePreconditions.cCompiler.trait }
    /// python3, for the generators under scripts/.
    public static var requiresPython3: Self { MachinePreconditions.python3.trait }
    /// gpsd itself, reading a pseudo-terminal.
    public static var requiresGPSD: Self { MachinePreconditions.gpsd.trait }
    /// gpsfake and gpspipe (Debian's gpsd-clients) beside gpsd.
    public static var requiresGPSFake: Self { MachinePreconditions.gpsfake.trait }
    /// A mosquitto broker with its command-line clients, and openssl for the test CA.
    public static var requiresMosquitto: Self { MachinePreconditions.mosquitto.trait }
    /// PostgreSQL 15 with PostGIS 3, which the tests start themselves (`PostgresServer`).
    public static var requiresPostGIS: Self { MachinePreconditions.postgis.trait }
    /// GDAL's ogrinfo and ogr2ogr (gdal-bin).
    public static var requiresGDAL: Self { MachinePreconditions.gdal.trait }
    /// espeak-ng, a real speech command.
    public static var requiresEspeak: Self { MachinePreconditions.espeak.trait }
    /// groff and man-db's man, to render the manual pages as a reader's man does.
    public static var requiresGroff: Self { MachinePreconditions.groff.trait }
    /// bash with Debian's bash-completion, to complete a command line as a shell does.
    public static var requiresBashCompletion: Self { MachinePreconditions.bashCompletion.trait }
    /// Debian's Chromium, headless: a report rendered by a real browser.
    public static var requiresChromium: Self { MachinePreconditions.chromium.trait }
    /// Valhalla from PyPI (scripts/valhalla/start.sh installs it when pip is there).
    public static var requiresValhalla: Self { RoutingEnginePreconditions.valhalla.trait }
    /// OSRM from PyPI, which needs Python 3.12 or newer (scripts/osrm/start.sh).
    public static var requiresOSRM: Self { RoutingEnginePreconditions.osrm.trait }
    /// gpsd's regression logs (`NAME.log` and `NAME.log.chk`): `DASHPILOT_GPSD_LOGS`, else
    /// `../shared/gpsd-logs`.
    public static var requiresGPSDLogs: Self { SharedLogs.gpsdLogsPrecondition.trait }
    /// The recordings of other projects' receivers: `DASHPILOT_REAL_LOGS`, else
    /// `../shared/real-logs`.
    public static var requiresSharedRealLogs: Self { SharedLogs.realLogsPrecondition.trait }
  }
#endif
