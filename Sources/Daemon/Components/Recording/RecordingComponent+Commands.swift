import Capture
import ControlProtocol
import DashPilotCore
import FoundationEssentials
import Guidance
import Store

// The control commands the recording component answers.
extension RecordingComponent {
  public func handle(_ request: ControlRequest, responder: Responder) {
    guard let store else {
      responder.fail(.unavailable, "the store is not open")
      return
    }
    do {
      switch request.command {
      case .shiftStart: responder.succeed(try startShift(store))
      case .shiftEnd: responder.succeed(try endShift(store))
      case .shifts(let limit): try listShifts(store, limit: limit, responder)
      case .shiftShow(let id): try showShift(store, id: id, responder)
      case .export(let id): try export(store, id: id, responder)
      case .report(let arguments): try report(store, arguments, responder)
      case .import(let arguments): try importTrack(store, arguments, responder: responder)
      default: responder.fail(.unavailable, "\(name) does not answer \(request.command.name)")
      }
    } catch {
      responder.fail(Self.controlError(error))
    }
  }

  private func listShifts(_ store: SampleStore, limit: Int?, _ responder: Responder) throws {
    var shifts = try store.shifts().reversed().map { $0 }
    if let limit { shifts = Array(shifts.prefix(max(0, limit))) }
    var rows: [ShiftSummary] = []
    for stored in shifts {
      rows.append(figure.summary(of: stored, distance: try store.recordedDistance(ofShift: stored.id)))
    }
    responder.succeed(ShiftsResult(shifts: rows))
  }

  private func showShift(_ store: SampleStore, id: Int64, _ responder: Responder) throws {
    responder.succeed(try ShiftAnswer(store, id: id).detail(figure, store: store))
  }

  /// A route that guidance cannot follow is the client's mistake, said as `route load`
  /// says it.
  private func report(_ store: SampleStore, _ arguments: ReportArguments, _ responder: Responder) throws {
    var route: GuidanceRoute?
    if !arguments.route.isEmpty {
      do {
        route = try GuidanceRoute(arguments.route.map { GeoCoordinate(latitude: $0.lat, longitude: $0.lon) })
      } catch {
        responder.fail(.badArguments, "report: the route cannot be followed: \(error.description)")
        return
      }
    }
    let answer = try ShiftAnswer(store, id: arguments.id)
    responder.succeed(
      try answer.report(figure, store: store, route: route, mode: TravelMode(arguments.mode)))
  }

  private func export(_ store: SampleStore, id: Int64, _ responder: Responder) throws {
    guard let stored = try store.shift(id: id) else { throw StoreError.shiftNotFound(id) }
    let segments = try store.continuousSegments(ofShift: id).map { segment in
      segment.samples.map {
        WireTrackPoint(
          lat: $0.coordinate.latitude, lon: $0.coordinate.longitude, time: $0.timestamp.timeIntervalSince1970,
          accuracy: $0.horizontalAccuracy)
      }
    }
    let distance = try store.recordedDistance(ofShift: id)
    responder.succeed(ExportResult(shift: figure.summary(of: stored, distance: distance), segments: segments))
  }

  /// The whole track: the control server assembled its parts.
  private func importTrack(_ store: SampleStore, _ arguments: ImportArguments, responder: Responder) throws {
    let points = arguments.points
    guard !points.isEmpty else { throw StoreError.emptyTrack }
    let judged = TrackImport.judge(ImportedTrack.points(points), configuration: configuration.filter)
    let refused = ImportedTrack.rejections(judged.statistics)
    guard !judged.samples.isEmpty else {
      responder.fail(
        .badArguments,
        "none of the track's \(points.count) points passes the capture rules: " + ImportResult.describe(refused))
      return
    }
    let shift = try store.importTrack(
      judged.samples, source: arguments.name ?? "import", maximumSampleInterval: configuration.maximumSampleInterval)
    let summary = figure.summary(of: shift, distance: try store.recordedDistance(ofShift: shift.id))
    let result = ImportResult(
      shift: summary, points: points.count, kept: judged.statistics.accepted, held: judged.statistics.held,
      accuracyAssumed: judged.statistics.accuracyAssumed, rejected: refused)
    context?.announce(
      .shiftImported(.init(shift: shift.id)),
      "imported \(judged.statistics.accepted) of \(points.count) positions as shift \(shift.id): \(summary.summary)")
    responder.succeed(result)
  }

  /// The answer for a store error: what the client did wrong, or what failed here.
  static func controlError(_ error: any Error) -> ControlError {
    guard let error = error as? StoreError else { return ControlError(.failed, "\(error)") }
    switch error {
    case .shiftAlreadyOpen: return ControlError(.conflict, error.description)
    case .noOpenShift: return ControlError(.conflict, error.description)
    case .shiftAlreadyEnded: return ControlError(.conflict, error.description)
    case .shiftNotFound: return ControlError(.notFound, error.description)
    case .emptyTrack, .invalidSample, .invalidTime, .invalidSetting:
      return ControlError(.badArguments, error.description)
    default: return ControlError(.failed, "the store failed: \(error.description)")
    }
  }
}
