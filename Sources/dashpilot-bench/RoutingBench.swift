// Routing benchmarks: what a route request costs the daemon, against real engines on
// loopback (started from the repository's scripts, as the tests do).
import DashPilotCore
import Foundation
import Guidance
import Routing
import TestSupport

func runRoutingBenchmarks(_ report: inout BenchReport) {
  let valhalla: RoutingEngineServer
  do {
    valhalla = try RoutingEngineServer.startValhalla()
  } catch {
    FileHandle.standardError.write(Data("routing benchmarks skipped: \(error)\n".utf8))
    return
  }
  defer { valhalla.stop() }
  let grid = valhalla.grid
  let request = RouteRequest(
    origin: grid.node(row: 0, column: 0), course: 90, destination: grid.node(row: 5, column: 5), mode: .driving)

  // Resident memory the first libcurl request adds to this process (libcurl, OpenSSL
  // initialisation, the resolver): the daemon pays it once.
  let before = residentKilobytes()
  let first = ValhallaProvider(baseURL: valhalla.baseURL).route(for: request)
  let after = residentKilobytes()
  guard case .success = first else {
    FileHandle.standardError.write(Data("routing benchmarks skipped: first route \(first)\n".utf8))
    return
  }
  report.record("routing_first_request_rss_delta", Double(after - before), "kB")

  report.record(
    "routing_valhalla_route_median", medianMilliseconds(ValhallaProvider(baseURL: valhalla.baseURL), request, report),
    "ms")

  if let osrm = try? RoutingEngineServer.startOSRM(profile: "car") {
    defer { osrm.stop() }
    report.record(
      "routing_osrm_route_median", medianMilliseconds(OSRMProvider(baseURL: osrm.baseURL), request, report), "ms")
  } else {
    FileHandle.standardError.write(Data("routing OSRM benchmark skipped: engine did not start\n".utf8))
  }
}

/// The median wall time of 100 blocking route requests on loopback, after 5 to warm up.
private func medianMilliseconds(_ provider: some RouteProvider, _ request: RouteRequest, _ report: BenchReport)
  -> Double
{
  for _ in 0..<5 { _ = provider.route(for: request) }
  var times: [Double] = []
  for _ in 0..<100 {
    times.append(report.seconds { _ = provider.route(for: request) } * 1000)
  }
  times.sort()
  return (times[49] + times[50]) / 2
}

private func residentKilobytes() -> Int {
  guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
  for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
    return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "0") ?? 0
  }
  return 0
}
