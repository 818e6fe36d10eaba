import Capture
import ControlProtocol
import DashPilotCore
import FoundationEssentials
import Guidance
import Store

#if canImport(Glibc)
  import Glibc
#endif

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
      case .shifts(let page): try listShifts(store, page, responder)
      case .shiftShow(let id): showShift(id: id, responder)
      case .export(let id): export(id: id, responder)
      case .report(let arguments): report(arguments, responder)
      case .import(let arguments): try importTrack(store, arguments, responder: responder)
      case .backup(let arguments): backup(arguments, responder)
      case .placesLoad(let arguments): loadPlaces(arguments, responder)
      default: responder.fail(.unavailable, "\(name) does not answer \(request.command.name)")
      }
    } catch {
      responder.fail(Self.controlError(error))
    }
  }

  /// Reads history on a reader's connection, off the loop (`StoreReaders`), and answers on
  /// the loop with what `job` returned, or its error as the store's errors are answered:
  /// capture's commits and `status` never wait for a listing or an export.
  private func answerFromHistory<Answer: Encodable & Sendable>(
    _ responder: Responder, _ job: @escaping @Sendable (SampleStore) throws -> Answer
  ) {
    guard let readers, let context else { return responder.fail(.unavailable, "the store is not open") }
    let bound = context.bind(responder)
    // The answer is written as JSON on the reader's thread too: the loop only copies it.
    readers.read({ reader in EncodedResult(try job(reader)) }) { result in
      bound.withValue { responder in
        switch result {
        case .success(let answer): responder.succeed(answer)
        case .failure(let error): responder.fail(Self.controlError(error))
        }
      }
    }
  }

  /// As `answerFromHistory`, for an answer whose track goes out in parts: the reader makes
  /// the head, and each later part is written as JSON on a reader's thread only once the
  /// client has taken most of the one before (`TrackAnswerParts`).
  private func answerInParts(
    _ responder: Responder, _ job: @escaping @Sendable (SampleStore) throws -> some PartedTrackAnswer
  ) {
    guard let readers, let context else { return responder.fail(.unavailable, "the store is not open") }
    let bound = context.bind(responder)
    readers.read({ reader in
      let parts = TrackAnswerParts(try job(reader))
      return (parts, parts.next())
    }) { result in
      bound.withValue { responder in
        switch result {
        case .success(let (parts, first)): Self.give(first, of: parts, to: responder, bound, readers)
        case .failure(let error): responder.fail(Self.controlError(error))
        }
      }
    }
  }

  private static func give(
    _ part: (part: EncodedResult, more: Bool), of parts: TrackAnswerParts, to responder: Responder,
    _ bound: LoopBound<Responder>, _ readers: StoreReaders
  ) {
    responder.succeedPart(part.part, more: part.more) {
      readers.run({ parts.next() }) { next in
        bound.withValue { responder in give(next, of: parts, to: responder, bound, readers) }
      }
    }
  }

  private func listShifts(_ store: SampleStore, _ page: ShiftsArguments, _ responder: Responder) throws {
    // The writer's epoch, read before the reader's snapshot: a change after it moves it.
    let rowEpoch = try store.rowEpoch()
    let (figure, figures) = (figure, figures)
    let kept = RetentionWording.kept(RetentionPolicy(configuration))
    answerFromHistory(responder) { reader in
      try reader.read { (_) throws(StoreError) in
        let found = try reader.shifts(limit: page.limit, before: page.before, since: page.since, until: page.until)
        var rows: [ShiftSummary] = []
        for stored in found.shifts {
          let distance = try reader.recordedDistance(ofShift: stored.id, remembering: figures, rowEpoch: rowEpoch)
          rows.append(figure.summary(of: stored, distance: distance))
        }
        return ShiftsResult(shifts: rows, more: found.more, kept: kept)
      }
    }
  }

  private func showShift(id: Int64, _ responder: Responder) {
    let (figure, policy, places, now) = (figure, configuration.stopPolicy, places, receiverNow())
    answerFromHistory(responder) { reader in
      try ShiftAnswer(reader, id: id).detail(figure, store: reader, stops: policy, places: places, now: now)
    }
  }

  /// The receiver's time now (the clock a shift's rows and window are on: its latest
  /// fix's), else the wall clock: what a running shift's stops and time are read up to.
  private func receiverNow() -> Date {
    guard let context else { return Date(timeIntervalSince1970: 0) }
    let now = context.clock.now()
    return context.receiverNow(now) ?? now.wall
  }

  /// A route that guidance cannot follow is the client's mistake, said as `route load`
  /// says it.
  private func report(_ arguments: ReportArguments, _ responder: Responder) {
    var route: GuidanceRoute?
    if !arguments.route.isEmpty {
      do {
        route = try GuidanceRoute(arguments.route.map { GeoCoordinate(latitude: $0.lat, longitude: $0.lon) })
      } catch {
        responder.fail(.badArguments, "report: the route cannot be followed: \(error.description)")
        return
      }
    }
    let (figure, mode, policy, places) = (figure, TravelMode(arguments.mode), configuration.stopPolicy, places)
    let now = receiverNow()
    answerInParts(responder) { [route] reader in
      try ShiftAnswer(reader, id: arguments.id).report(
        figure, store: reader, route: route, mode: mode, stops: policy, places: places, now: now)
    }
  }

  private func export(id: Int64, _ responder: Responder) {
    let (figure, policy, places, now) = (figure, configuration.stopPolicy, places, receiverNow())
    answerInParts(responder) { reader in
      try ShiftAnswer(reader, id: id).export(figure, stops: policy, places: places, now: now)
    }
  }

  /// `backup`: SQLite's online backup on a reader's connection, off the loop, so capture
  /// commits on while a year is copied. The daemon writes the file, as its own user.
  private func backup(_ arguments: BackupArguments, _ responder: Responder) {
    guard let now = context?.clock.now().wall else { return }
    let path = arguments.path ?? StoreBackup.defaultPath(forDatabase: configuration.databasePath, now: now)
    let directory = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
    if arguments.path == nil, !directory.isEmpty { mkdir(directory, 0o750) }
    answerFromHistory(responder) { reader in
      do throws(StoreError) {
        let copy = try reader.backup(to: path)
        return BackupResult(path: copy.path, bytes: copy.bytes, shifts: copy.shifts)
      } catch .invalidSetting(let reason) {
        throw BackupRefused(reason)
      } catch {
        let user = getpwuid(geteuid()).flatMap { $0.pointee.pw_name.map { String(cString: $0) } } ?? "uid \(geteuid())"
        let reason = error.sqliteFailure?.message ?? "\(error)"
        throw BackupRefused("dashpilotd (user \(user)) could not write \(path): \(reason)")
      }
    }
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
    if let refused = error as? BackupRefused { return ControlError(.failed, refused.description) }
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

/// Why a backup was not written, in the words the client shows.
struct BackupRefused: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}
