import ControlProtocol
import FoundationEssentials
import PlatformSupport

struct ExportCommand: CLICommand {
  static let words = ["export"]
  static let summary = "Write a shift's recorded route as GPX or GeoJSON, gaps kept as gaps."
  static let help = """
    USAGE: dashpilotctl export ID --format gpx|geojson [--output FILE]

    Writes shift ID's recorded positions to standard output (or FILE). Every stretch of
    continuous capture is its own GPX track segment (GeoJSON MultiLineString line), so a
    gap is never drawn as a straight line that was not driven. GPX also has each stop
    that shift show lists as a waypoint at its arrival ("Stop 1", its duration as the
    description). With --json, prints the daemon's answer (the segments and the stops)
    instead.
    """

  var id: Int64
  var format: RouteFileHooks.ExportFormat
  var output: String?

  init(arguments: inout ArgumentCursor) throws(UsageError) {
    guard let formatText = try arguments.option("--format") else {
      throw UsageError("--format gpx|geojson is required", command: Self.name)
    }
    guard let format = RouteFileHooks.ExportFormat(rawValue: formatText.lowercased()) else {
      throw UsageError("--format must be gpx or geojson, not \"\(formatText)\"", command: Self.name)
    }
    self.format = format
    output = try arguments.option("--output")
    id = try arguments.shiftID(for: Self.name)
    try arguments.finish()
  }

  func run(_ context: CommandContext) -> ExitStatus {
    context.withClient { client throws(ClientFailure) in
      let result = try client.request(.export(id: id), assembling: ExportResult.self)
      if context.options.json {
        context.printJSON(result)
        return .success
      }
      let data: Data
      do {
        data = try context.hooks.writeExport(result, format)
      } catch {
        throw .failed("dashpilotctl: \(error)")
      }
      if let output {
        do {
          try data.write(to: URL(fileURLWithPath: output), options: .atomic)
        } catch {
          throw .failed("cannot write \(output): \(SystemErrorText.reason(error))")
        }
        context.console.error("Wrote shift #\(id) (\(result.segments.count) segments) to \(output).")
      } else {
        context.console.writeOutput(String(decoding: data, as: UTF8.self))
      }
      return .success
    }
  }
}

struct ImportCommand: CLICommand {
  static let words = ["import"]
  static let summary = "Import a GPX track from another logger as a shift."
  static let help = """
    USAGE: dashpilotctl import FILE.gpx [--json]

    Reads the track in FILE.gpx, judges its points by the same capture rules as live
    fixes (fix type, HDOP, speed where the file has them; the assumed accuracy where it
    has no HDOP) and stores the points kept as a shift, saying what it refused and why.
    A track from another logger has no capture sessions, so its continuity is inferred
    from timestamps and its figure is always reported as partial. Only root, the daemon's
    user and members of the socket group may import.
    """

  /// Points per request: one request line must stay under the protocol's 64 KiB.
  static let pointsPerPart = 500

  var path: String

  init(arguments: inout ArgumentCursor) throws(UsageError) {
    path = try arguments.requiredPositional("the GPX file")
    try arguments.finish()
  }

  func run(_ context: CommandContext) -> ExitStatus {
    let track: RouteFileHooks.Track
    do {
      track = try context.hooks.readTrack(URL(fileURLWithPath: path))
    } catch {
      return context.report(.failed("cannot import \(path): \(error)"))
    }
    guard !track.points.isEmpty else { return context.report(.failed("\(path) holds no track points")) }
    return context.withClient { client throws(ClientFailure) in
      let result = try client.request(
        ImportArguments(name: track.name, points: track.points), inPartsOf: Self.pointsPerPart, as: ImportResult.self)
      if context.options.json {
        context.printJSON(result)
      } else {
        context.console.line(
          "Imported \(result.kept) of \(track.points.count) points as shift #\(result.shift.id): "
            + ShiftRenderer(console: context.console).summary(result.shift))
        if !result.rejected.isEmpty {
          context.console.line("refused: " + ImportResult.describe(result.rejected))
        }
      }
      return .success
    }
  }
}
