import DashPilotCore
import FoundationEssentials

extension SampleStore {
  /// Stores a track recorded by another logger (read from GPX by RouteFiles) as a new,
  /// completed shift spanning its first to its last position. Its positions carry no
  /// capture session whatever they say, because this box did not capture them: the
  /// measurement infers their continuity from timestamps and reports the route as partial.
  ///
  /// Every position is checked before anything is written; the first that cannot be
  /// stored is named in the error. The import is one transaction.
  public func importTrack(
    _ positions: [RouteSample], source: String,
    maximumSampleInterval: TimeInterval = RouteMileageCalculator.defaultMaximumSampleInterval
  ) throws(StoreError) -> StoredShift {
    guard !positions.isEmpty else { throw .emptyTrack }
    try Self.validate(maximumSampleInterval: maximumSampleInterval)
    var anonymous = positions.map { position in
      var copy = position
      copy.captureSessionID = nil
      return copy
    }
    var encoded: [EncodedSample] = []
    encoded.reserveCapacity(anonymous.count)
    for (index, position) in anonymous.enumerated() {
      do {
        encoded.append(try EncodedSample(position))
      } catch .invalidSample(let reason) {
        throw .invalidSample("position \(index + 1) of \(positions.count): \(reason)")
      }
    }
    // Stored in the order the measurement walks them, so an export reads them in order.
    let order = anonymous.indices.sorted {
      RouteMileageCalculator.measurementOrder(anonymous[$0], anonymous[$1])
    }
    encoded = order.map { encoded[$0] }
    anonymous = order.map { anonymous[$0] }
    guard let first = encoded.first, let last = encoded.last else { throw .emptyTrack }
    return try write("import \(positions.count) positions") { () throws(StoreError) -> StoredShift in
      let id = try insertShift(
        startMilliseconds: first.fixTimeMilliseconds, endMilliseconds: last.fixTimeMilliseconds,
        maximumSampleInterval: maximumSampleInterval, importedFrom: source, startedBy: .imported, endedBy: .imported)
      _ = try insertRows(encoded, sessions: anonymous.map(\.captureSessionID), shiftID: id)
      guard let shift = try shift(id: id) else { throw .shiftNotFound(id) }
      if let commitObserver {
        try commitObserver.samplesStored(anonymous, shiftID: id, in: currentTransaction)
        try commitObserver.shiftCompleted(
          shift, distance: try recordedDistance(ofShift: id), sampleRows: encoded.count, in: currentTransaction)
      }
      return shift
    }
  }
}
