// Reliability benchmarks: the capture path the power-cut test kills, run flat out. An hour
// of 10 Hz driving as gpsd JSON goes through the real decoder, CaptureService and
// StoreSampleSink (the daemon's one-second batches, judged by the fix times) into a real
// SQLite file with synchronous=FULL, so each batch costs a real fsync.
import Capture
import DashPilotCore
import Foundation
import GPSD
import Store
import TestSupport

#if canImport(Glibc)
  import Glibc
#endif

/// CPU seconds (user + system) this process has used.
private func processCPUSeconds() -> Double {
  var usage = rusage()
  getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
  return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
    + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
}

func runReliabilityBenchmarks(_ report: inout BenchReport) {
  let fixes = 36_000  // an hour at 10 Hz
  let lines = (0..<fixes).map(ReliabilityDrive.tpvLine)
  let directory = FileManager.default.temporaryDirectory.appendingPathComponent("dashpilot-bench-\(UUID().uuidString)")
  defer { try? FileManager.default.removeItem(at: directory) }
  do {
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let store = try SampleStore(path: directory.appendingPathComponent("bench.sqlite").path)
    let shift = try store.startShift(at: ReliabilityDrive.time(0))
    var fixTime = ReliabilityDrive.time(0)
    let sink = StoreSampleSink(batch: SampleBatch(store: store, shiftID: shift.id), now: { fixTime })
    var capture = CaptureService(sink: sink)
    try capture.startCapture()
    var failures = 0
    let cpuBefore = processCPUSeconds()
    let seconds = report.seconds {
      for greeting in [ReliabilityDrive.versionLine, ReliabilityDrive.deviceLine].compactMap(GPSDJSONDecoder.decode) {
        _ = capture.receive(greeting, arrival: 0)
      }
      for (k, line) in lines.enumerated() {
        guard let report = GPSDJSONDecoder.decode(line) else { continue }
        fixTime = ReliabilityDrive.time(k)
        _ = capture.receive(report, arrival: Double(k) * ReliabilityDrive.interval)
        do { try sink.flushIfDue() } catch { failures += 1 }
      }
      _ = capture.stopCapture(reason: "bench done")
      do { try sink.flush() } catch { failures += 1 }
    }
    let cpu = processCPUSeconds() - cpuBefore
    let kept = try store.samples(ofShift: shift.id).count
    report.record("reliability.capture_store_fixes_per_second", (Double(fixes) / seconds).rounded(), "fixes/s")
    report.record("reliability.capture_store_cpu_seconds_per_10hz_hour", cpu, "s")
    report.record("reliability.capture_store_kept_samples_per_10hz_hour", Double(kept), "samples")
    report.record("reliability.capture_store_failures", Double(failures + capture.statistics.saveFailures), "failures")
  } catch {
    print("bench reliability.capture_store_error 1 error  # \(error)")
  }
}
