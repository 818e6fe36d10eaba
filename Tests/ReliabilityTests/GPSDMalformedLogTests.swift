import Capture
import DashPilotCore
import Foundation
import GPSD
import TestSupport
import Testing

/// gpsd's own malformed and misbehaving receiver logs, played into a real gpsd, read by the
/// real GPSDSource, judged by CaptureService and written through StoreSampleSink into a
/// real SQLite file: nothing crashes, everything capture accepted is stored, and nothing
/// impossible is.
///
/// The logs are played through `GPSDPseudoReceiver` (a pseudo-terminal gpsd reads) rather
/// than gpsfake: gpsfake starts writing before gpsd has set the terminal up, and gpsd 3.22
/// drops what came before, so most of a short log (nmea-fuzzy-cases is 36 lines) never
/// reached it (no TPV at all at gpsfake -c 0.01, 3 of 15 at -c 0.1). Here the feed starts
/// once gpsd has announced the device, so every line of every log reaches gpsd.
@Suite(.requiresGPSDLogs, .requiresGPSD) struct GPSDMalformedLogTests {
  /// `nmea-fuzzy-cases` and `skytraq-err` (gpsd's fuzz and error cases), and the logs whose
  /// own notes say they carry bad input: a wrong year after the 2019 week rollover
  /// (april6_2019, gp-320fw-2019-03-28), malformed or unterminated sentences (iTrek,
  /// triton400, eXplorist210), bad or missing checksums (st-teseo-liv4f, hp58534a,
  /// mtk-3301, magellan-ec10), invalid fields (meinberg-gps164, furuno_gl_ga), and a dateless acquisition phase (ericsson-gru04).
  static let logs = [
    "nmea-fuzzy-cases", "skytraq-err", "april6_2019", "gp-320fw-2019-03-28", "iTrek", "triton400",
    "eXplorist210", "st-teseo-liv4f", "hp58534a", "mtk-3301", "magellan-ec10", "meinberg-gps164",
    "furuno_gl_ga", "ericsson-gru04",
  ]

  final class Recorder: Sendable {
    struct Timed: Sendable {
      var event: GPSDSourceEvent
      var wallClock: Date
    }
    let events = EventRecorder<Timed>()
  }

  @Test(arguments: logs)
  func aMalformedLogStoresNothingImpossible(_ name: String) throws {
    let log = TestPaths.gpsdLogs.appendingPathComponent("\(name).log")
    let receiver = try GPSDPseudoReceiver(nmea: log, secondsPerLine: 0.01)
    defer { receiver.stop() }
    try receiver.startGPSD()
    let recorder = Recorder()
    let events = recorder.events
    let source = GPSDSource(endpoint: GPSDEndpoint(host: "127.0.0.1", port: receiver.port)) {
      events.append(Recorder.Timed(event: $0, wallClock: Date()))
    }
    source.start()
    defer { source.stop() }
    // gpsd (-n) has the terminal open from its start; its greeting says our WATCH is in.
    let greeted = events.wait(timeout: 20) { recorded in
      recorded.contains { if case .report(.version, _) = $0.event { return true } else { return false } }
    }
    #expect(greeted, "\(name): gpsd never greeted the source")
    Thread.sleep(forTimeInterval: 0.3)
    receiver.startFeeding()
    #expect(receiver.waitForProgress(receiver.lineCount, timeout: 60), "\(name): the log was not fed")
    // gpsd reports a cycle when the next one starts or the line goes quiet.
    Thread.sleep(forTimeInterval: 1.5)
    #expect(source.stop())

    let capture = try StoreCapture(label: "malformed-\(name)")
    for timed in events.snapshot {
      capture.batchClock = timed.wallClock
      capture.handle(timed.event, wallClock: timed.wallClock)
    }
    let stored = try capture.finish()
    #expect(StoredShiftInvariants.violations(in: stored) == [], "\(name)")
    #expect(stored.count == capture.service.statistics.accepted, "\(name)")
    #expect(capture.service.statistics.saveFailures == 0, "\(name)")
    #expect(try capture.store.integrityCheck() == ["ok"])
    let reports = events.snapshot.filter { if case .report = $0.event { return true } else { return false } }
    #expect(!reports.isEmpty, "\(name): gpsd said nothing")
    if name == "nmea-fuzzy-cases" {
      // Every cycle of the log reached capture: as many TPVs as gpsd's own expected output.
      let expected = try String(
        contentsOf: TestPaths.gpsdLogs.appendingPathComponent("\(name).log.chk"), encoding: .utf8
      )
      .split(separator: "\n").filter { $0.contains(#""class":"TPV""#) }.count
      #expect(capture.service.statistics.received == expected)
      #expect(expected == 15)
    }
    print(
      "malformed log \(name): \(reports.count) reports, \(capture.service.statistics.received) fixes, \(stored.count) kept, rejected \(capture.service.statistics.rejected.sorted { $0.key.rawValue < $1.key.rawValue }.map { "\($0.key.rawValue)=\($0.value)" }.joined(separator: " "))"
    )
  }
}
