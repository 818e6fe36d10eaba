// A child process for the reliability power-cut test: the daemon's capture path without
// the daemon (its recording component is wired elsewhere). It streams ReliabilityDrive's
// 10 Hz gpsd JSON in real time (fix k arrives STREAM_START + k/10 s on the wall clock, so
// fixes that fall while no child runs are missed, as a live receiver's are) through the
// real GPSDJSONDecoder, CaptureService and StoreSampleSink over a SampleBatch with the
// daemon's policy (flush after a second or 32 samples; a timer flush every pass), into the
// open shift of DATABASE. Not installed; tests only.
//
//   dashpilot-capture-child DATABASE STREAM_START [STOP_AFTER_SAMPLES]
//
// It prints, each line written straight to the pipe before it goes on:
//   ready SESSION_COUNT          capture started (store opened, stale sessions ended)
//   pending MS                   a sample (fix time in ms since 1970) handed to the batch
//   committed MS                 every pending sample up to fix time MS is committed
//   session ID                   a capture session started
//   done                         STOP_AFTER_SAMPLES samples kept; flushed and stopped
//   failed MESSAGE               anything went wrong (exit 1)
import Capture
import DashPilotCore
import Foundation
import GPSD
import PlatformSupport
import Store
import TestSupport

#if canImport(Glibc)
  import Glibc
#endif

func say(_ line: String) {
  FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

func milliseconds(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded()) }

/// The real sink, with each hand-over and commit said on stdout before capture goes on.
final class ReportingSink: SampleSink {
  let sink: StoreSampleSink
  init(_ sink: StoreSampleSink) { self.sink = sink }

  func save(_ sample: RouteSample) throws {
    say("pending \(milliseconds(sample.timestamp))")
    let before = sink.batch.pending.count
    try sink.save(sample)
    if sink.batch.pending.count <= before { say("committed \(milliseconds(sample.timestamp))") }
  }

  /// The timer's flush.
  func flushIfDue() throws {
    let last = sink.batch.pending.last
    if try sink.flushIfDue() > 0, let last { say("committed \(milliseconds(last.timestamp))") }
  }

  func flush() throws {
    let last = sink.batch.pending.last
    if try sink.flush() > 0, let last { say("committed \(milliseconds(last.timestamp))") }
  }

  func lastRetainedSample() throws -> RouteSample? { try sink.lastRetainedSample() }

  func captureSessionStarted(_ session: CaptureSessionID, reason: SessionStartReason, at: Date?) {
    sink.captureSessionStarted(session, reason: reason, at: at)
    say("session \(session.rawValue)")
  }

  func captureSessionEnded(_ session: CaptureSessionID, reason: SessionEndReason, at: Date?) {
    sink.captureSessionEnded(session, reason: reason, at: at)
  }
}

let arguments = CommandLine.arguments
guard arguments.count == 3 || arguments.count == 4, let streamStart = Double(arguments[2]),
  arguments.count == 3 || Int(arguments[3]) != nil
else {
  FileHandle.standardError.write(
    Data("usage: dashpilot-capture-child DATABASE STREAM_START [STOP_AFTER_SAMPLES]\n".utf8))
  exit(2)
}
let stopAfter = arguments.count == 4 ? Int(arguments[3]) : nil

do {
  let store = try SampleStore(path: arguments[1])
  let shift = try store.openShift() ?? store.startShift(at: ReliabilityDrive.time(0))
  // After a power cut no session is running, whatever the rows say.
  let lastKept = try store.lastSample(ofShift: shift.id)
  try store.endRunningCaptureSessions(at: lastKept?.timestamp ?? ReliabilityDrive.time(0), reason: "power_cut")
  let batch = SampleBatch(store: store, shiftID: shift.id)
  let sink = ReportingSink(StoreSampleSink(batch: batch, now: { Date() }))
  var capture = CaptureService(sink: sink)
  try capture.startCapture()
  say("ready \(try store.captureSessions().count)")
  for line in [ReliabilityDrive.versionLine, ReliabilityDrive.deviceLine] {
    if let report = GPSDJSONDecoder.decode(line) { _ = capture.receive(report, arrival: MonotonicClock.now()) }
  }
  var k = max(0, Int(((Date().timeIntervalSince1970 - streamStart) / ReliabilityDrive.interval).rounded(.up)))
  while true {
    let due = streamStart + Double(k) * ReliabilityDrive.interval
    let wait = due - Date().timeIntervalSince1970
    if wait > 0 { usleep(useconds_t(wait * 1_000_000)) }
    guard let report = GPSDJSONDecoder.decode(ReliabilityDrive.tpvLine(k)) else {
      say("failed fix \(k) did not decode")
      exit(1)
    }
    for event in capture.receive(report, arrival: MonotonicClock.now()) {
      if case let .saveFailed(reason) = event {
        say("failed \(reason)")
        exit(1)
      }
    }
    try sink.flushIfDue()
    k += 1
    if let stopAfter, capture.statistics.accepted >= stopAfter {
      _ = capture.stopCapture(reason: "test done")
      try sink.flush()
      say("done")
      exit(0)
    }
  }
} catch {
  say("failed \(error)")
  exit(1)
}
