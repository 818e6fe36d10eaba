import ControlProtocol
import DashPilotCore
import FoundationEssentials
import ShiftReport

/// The delivery day in the report: each stop numbered as `shift show` numbers it, each job
/// visited tied to the stop that visited it, the places the daemon found around the drive,
/// and the lists beneath the drawing in `shift show`'s words.
extension ReportContentBuilder {
  var stopMarks: [ShiftReportContent.StopMark] {
    result.detail.stops.enumerated().map { index, stop in
      ShiftReportContent.StopMark(
        coordinate: GeoCoordinate(latitude: stop.latitude, longitude: stop.longitude), number: index + 1,
        label: "\(index + 1) · \(CaptureGapWording.duration(stop.durationSeconds))")
    }
  }

  /// The number of the stop that visited `visit` (the one its time overlaps most), nil
  /// when none of the shift's stops does.
  func stopNumber(of visit: WireJobVisit) -> Int? {
    var best: (number: Int, overlap: Double)?
    for (index, stop) in result.detail.stops.enumerated() {
      let overlap =
        min(stop.departure, visit.departure).timeIntervalSince(max(stop.arrival, visit.arrival))
      guard overlap >= 0, best.map({ overlap > $0.overlap }) ?? true else { continue }
      best = (index + 1, overlap)
    }
    return best?.number
  }

  /// Each job with a visit, at its destination: "job A1 · stop 1".
  var jobMarks: [ShiftReportContent.Mark] {
    result.detail.jobs.compactMap { job in
      guard let visit = job.visit else { return nil }
      let stop = stopNumber(of: visit).map { " · stop \($0)" } ?? ""
      return ShiftReportContent.Mark(
        coordinate: GeoCoordinate(latitude: job.lat, longitude: job.lon), label: "job \(job.id)\(stop)")
    }
  }

  /// "Depot (depot)".
  static func placeLabel(_ place: WirePlace) -> String { "\(place.name) (\(place.kind))" }

  var placeShapes: [ShiftReportContent.PlaceShape] {
    result.places.compactMap { place in
      place.area.map { ShiftReportContent.PlaceShape(area: $0, label: Self.placeLabel(place)) }
    }
  }

  /// The stops as `shift show` lists them, the day's time, the jobs in the ledger's order
  /// (visited as the car arrived, then those not reached) each with the stop that visited
  /// it, and the places drawn.
  var listings: [ShiftReportContent.Listing] {
    let detail = result.detail
    var listings = [
      ShiftReportContent.Listing(
        kind: "stop-line",
        lines: [StopWording.count(detail.stops.count, minimumStop: detail.time.minimumStopSeconds)]
          + detail.stops.enumerated().map { index, stop in
            let clock = ReaderClock.span(stop.arrival, stop.departure)
            return StopWording.line(
              number: index + 1, from: clock.from, to: clock.to, duration: stop.durationSeconds, cut: stop.cut,
              place: stop.place)
          }),
      ShiftReportContent.Listing(
        kind: "time-line", lines: ["Time: " + detail.time.summary] + detail.time.qualifyingSentences),
    ]
    if !detail.jobs.isEmpty {
      listings.append(
        ShiftReportContent.Listing(
          kind: "job-line",
          lines: ["Jobs:"]
            + detail.jobs.map { job in
              ShiftLines.job(job) + (job.visit.flatMap(stopNumber).map { ", at stop \($0)" } ?? "")
            }))
    }
    if !result.places.isEmpty {
      listings.append(
        ShiftReportContent.Listing(
          kind: "place-line", lines: ["Places drawn: " + result.places.map(Self.placeLabel).joined(separator: ", ")]))
    }
    return listings
  }
}
