// What a year costs on the card: bytes of database file per hour of shift (the file's size
// after N hours of shifts, checkpointed, divided by N) for a 1 Hz and a 10 Hz receiver, and
// for a 1 Hz receiver recording into a file 0.1.0 made (4 KiB pages, AUTOINCREMENT); and
// what writing the year took the generator, wall and CPU time (measured when it was
// written, kept with it).
import Foundation

enum YearStorageBench {
  static func run(_ report: inout BenchReport, _ histories: YearHistories) throws {
    let year = try histories.history(YearHistories.year, label: "1_year")
    let tenHertz = try histories.history(YearHistories.tenHoursTenHz, label: "10h_10hz")
    let release = try histories.history(YearHistories.threeMonthsRelease, label: "3_months_0_1_0")
    report.record("year.file_bytes_per_hour_1hz", (year.summary.bytesPerShiftHour / 100).rounded() / 10, "kB")
    report.record("year.file_bytes_per_hour_10hz", (tenHertz.summary.bytesPerShiftHour / 100).rounded() / 10, "kB")
    report.record(
      "year.file_bytes_per_hour_1hz_0_1_0_layout", (release.summary.bytesPerShiftHour / 100).rounded() / 10, "kB")
    report.record("year.file_1_year_1hz", (Double(year.summary.bytes) / 1e5).rounded() / 10, "MB")
    report.record("year.samples_1_year_1hz", Double(year.summary.counts.samples), "samples")
    report.record("year.history_write_1_year_1hz", (year.summary.seconds * 10).rounded() / 10, "s")
    report.record("year.history_write_1_year_1hz_cpu", (year.summary.cpuSeconds * 10).rounded() / 10, "s")
  }
}
