// Capture benchmarks: replay throughput through the decoder, CaptureService and the filter.
import Capture
import DashPilotCore
import Foundation
import TestSupport

/// A long drive as gpsd JSON, generated in memory: `fixes` seconds of driving at 10-15 m/s
/// with turns and a stop every few minutes, one TPV and one SKY line a second (SKY is the
/// line replay skips past most).
private func generatedLog(fixes: Int) -> Data {
  var random = SeededGenerator(seed: 2024)
  var position = GeoCoordinate(latitude: 51.5, longitude: -0.12)
  var bearing = 0.0
  var text = #"{"class":"VERSION","release":"3.22","rev":"3.22","proto_major":3,"proto_minor":14}"#
  text += "\n"
  let epoch = 1_714_557_600.0
  text.reserveCapacity(fixes * 330)
  for second in 0..<fixes {
    let stopped = second % 300 < 30
    let speed = stopped ? 0 : 10 + Double(random.next() % 500) / 100
    if second % 45 == 0 {
      bearing = (bearing + (random.next() % 2 == 0 ? 90 : 270)).truncatingRemainder(dividingBy: 360)
    }
    position = GeographicDistance.destination(from: position, bearing: bearing, distance: speed)
    let jitterNorth = Double(random.next() % 100) / 100 - 0.5
    let fix = GeographicDistance.destination(from: position, bearing: 0, distance: jitterNorth)
    let time = GPSDTimeText.iso(epoch + Double(second))
    text +=
      #"{"class":"TPV","device":"/dev/ttyUSB0","mode":3,"time":"\#(time)","ept":0.005,"lat":\#(fix.latitude),"lon":\#(fix.longitude),"altHAE":82.0,"epv":23.0,"track":\#(bearing),"speed":\#(speed),"eph":17.1}"#
    text += "\n"
    text += #"{"class":"SKY","device":"/dev/ttyUSB0","time":"\#(time)","hdop":0.9,"nSat":12,"uSat":9}"#
    text += "\n"
  }
  return Data(text.utf8)
}

/// Formats times without Foundation's formatters (which load ICU).
private enum GPSDTimeText {
  static func iso(_ seconds: Double) -> String {
    var t = time_t(seconds)
    var parts = tm()
    gmtime_r(&t, &parts)
    func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
    return
      "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)).000Z"
  }
}

func runCaptureBenchmarks(_ report: inout BenchReport) {
  let fixes = 200_000
  let log = generatedLog(fixes: fixes)
  var result: ReplayResult?
  let seconds = report.seconds {
    var replay = GPSDLogReplay()
    replay.feed(contents: log)
    result = replay.finish()
  }
  report.record("capture.replay_fixes_per_second", (Double(fixes) / seconds).rounded(), "fixes/s")
  report.record("capture.replay_lines_per_second", (Double(fixes * 2 + 1) / seconds).rounded(), "lines/s")
  report.record("capture.replay_kept_samples", Double(result?.statistics.accepted ?? 0), "samples")
  do {
    try CaptureInstructionsBench.run(&report)
  } catch {
    FileHandle.standardError.write(Data("capture instructions benchmark failed: \(error)\n".utf8))
    print("bench capture.instructions_error 1 error")
  }
}
