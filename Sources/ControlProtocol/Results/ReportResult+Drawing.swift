import DashPilotCore

extension ReportResult {
  /// Each stretch of a measured shift simplified for drawing, its first and last positions
  /// kept, to a tolerance of the shift's extent (the longer side of the box around its
  /// positions and `reference`, the shift's first row) over `drawingResolution`: what the
  /// daemon's `report` answers and the office draws from its rows alike.
  public static func drawing(
    _ stretches: [RouteStretch], reference: GeoCoordinate?
  ) -> (stretches: [[WireTrackPoint]], toleranceMetres: Double) {
    let tolerance = toleranceMetres(stretches, reference: reference)
    let drawn = stretches.map { stretch in
      let coordinates = stretch.samples.map(\.coordinate)
      return PolylineSimplifier.keptIndices(coordinates, toleranceMetres: tolerance).map { index in
        let sample = stretch.samples[index]
        return WireTrackPoint(
          lat: sample.coordinate.latitude, lon: sample.coordinate.longitude,
          time: sample.timestamp.timeIntervalSince1970)
      }
    }
    return (drawn, tolerance)
  }

  /// The longer side of the box around every position, over the drawing's resolution.
  static func toleranceMetres(_ stretches: [RouteStretch], reference: GeoCoordinate?) -> Double {
    guard let reference else { return minimumToleranceMetres }
    let frame = LocalFlatFrame(reference: reference)
    var low = FlatPoint(x: 0, y: 0)
    var high = low
    for sample in stretches.lazy.flatMap(\.samples) {
      let point = frame.project(sample.coordinate)
      low = FlatPoint(x: min(low.x, point.x), y: min(low.y, point.y))
      high = FlatPoint(x: max(high.x, point.x), y: max(high.y, point.y))
    }
    let extent = max(high.x - low.x, high.y - low.y)
    return max(minimumToleranceMetres, extent / drawingResolution)
  }
}
