import ControlProtocol
import DashPilotCore
import FoundationEssentials
import PlatformSupport

/// `status` on one screen: one labelled line per part, the open shift's counts beneath
/// it. A part a component has not reported says so in words.
struct StatusRenderer {
  let console: Console
  var now = Date()

  func render(_ status: StatusResult) -> [String] {
    var lines: [String] = []
    let daemon = status.daemon
    lines.append(
      label("dashpilotd")
        + "\(daemon.version) · \(daemon.state) · up \(HumanFormat.duration(daemon.uptimeSeconds)) (pid \(daemon.pid))")
    if daemon.clockSynchronised == false {
      lines.append(
        label("clock") + console.styled("not synchronised", .yellow)
          + " (the kernel says so): shift times, and fixes that come without a date, read a clock that may be wrong")
    }
    lines.append(label("gpsd") + gpsdLine(status.gpsd))
    lines.append(label("capture") + captureLine(status.capture))
    if let rejected = status.capture.rejected, !rejected.isEmpty {
      let reasons = rejected.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
        .map { "\($0.key.replacing("_", with: " ")) \($0.value)" }
      lines.append(label("") + "refused: " + reasons.joined(separator: ", "))
    }
    if let stop = status.capture.stop {
      lines.append(
        label("")
          + "stopped since \(HumanFormat.clock(stop.since, now: now)) (\(CaptureGapWording.duration(stop.seconds)))")
    }
    if let shift = status.shift {
      let shifts = ShiftRenderer(console: console)
      let standing = shifts.standing(shift).map { console.styled($0, .yellow) + " · " } ?? ""
      lines.append(
        label("shift")
          + "#\(shift.id) since \(HumanFormat.clock(shift.startedAt, now: now))\(shifts.startedBy(shift)) · "
          + standing + shifts.summary(shift))
      lines += shifts.details(shift, indent: label("") + "  ")
    } else {
      lines.append(label("shift") + "none open")
    }
    lines.append(label("guidance") + guidanceLine(status.guidance, units: daemon.units))
    lines.append(label("store") + storeLine(status.store))
    if let outlook = status.store.outlook {
      lines.append(
        label("") + (status.store.daysLeft.map { $0 < 30 } == true ? console.styled(outlook, .yellow) : outlook))
    }
    if let uplink = status.uplink {
      let line = uplink.connected ? uplink.summary : console.styled(uplink.summary, .yellow)
      lines.append(label("uplink") + line)
      if let commands = uplink.commands { lines.append(label("commands") + commands.summary) }
    }
    return lines
  }

  private func label(_ text: String) -> String {
    let padded = text.padded(toLength: 11)
    return text.isEmpty ? padded : console.styled(padded, .bold)
  }

  private func gpsdLine(_ gpsd: GPSDSection) -> String {
    guard gpsd.connected else { return console.styled("not connected", .yellow) + " (\(gpsd.address))" }
    var parts = ["connected (\(gpsd.address))", gpsd.device ?? "no receiver"]
    if let mode = gpsd.fixMode {
      parts.append(mode == "none" ? "no fix" : "\(mode.uppercased()) fix")
    }
    if let accuracy = gpsd.accuracyMetres { parts.append(HumanFormat.metres(accuracy)) }
    if let last = gpsd.lastFixAt { parts.append("last fix \(HumanFormat.clock(last, now: now))") }
    return parts.joined(separator: " · ")
  }

  private func captureLine(_ capture: CaptureSection) -> String {
    guard capture.accepted != nil || capture.session != nil else { return "not reported" }
    var parts: [String] = []
    if let session = capture.session {
      let since = capture.sessionStartedAt.map { " since \(HumanFormat.clock($0, now: now))" } ?? ""
      parts.append("session \(session)\(since)")
    } else {
      parts.append("no session")
    }
    if let accepted = capture.accepted { parts.append("\(accepted) kept") }
    if let rejected = capture.rejected { parts.append("\(rejected.values.reduce(0, +)) refused") }
    if let assumed = capture.accuracyAssumed, assumed > 0 { parts.append("accuracy assumed (receiver reports none)") }
    if let dated = capture.datedByArrival, dated > 0 {
      parts.append("\(dated) dated by arrival (receiver sends no date)")
    }
    return parts.joined(separator: " · ")
  }

  private func guidanceLine(_ guidance: GuidanceSection?, units: String) -> String {
    guard let guidance else { return "no route" }
    var parts = ["\(guidance.phase.replacing("_", with: " ")) (\(guidance.mode))"]
    if let remaining = guidance.distanceRemainingMetres {
      parts.append("\(HumanFormat.distance(metres: remaining, units: units)) to go")
    }
    if let reroute = guidance.reroute { parts.append(reroute) }
    let line = parts.joined(separator: " · ")
    return guidance.phase == "off_route" ? console.styled(line, .yellow) : line
  }

  private func storeLine(_ store: StoreSection) -> String {
    var line: String
    switch store.ok {
    case true?: line = "\(store.path) · " + console.styled("ok", .green)
    case false?: line = "\(store.path) · " + console.styled("error", .red) + ": \(store.lastError ?? "unknown")"
    case nil: return "\(store.path) · not reported"
    }
    // Only what a person looking after the box should act on or wait for.
    if let late = store.commitsLate, late > 0 {
      line += " · \(late) commit\(late == 1 ? "" : "s") a second or more late"
    }
    switch store.check {
    case "damaged"?:
      let finding = store.checkFindings?.first ?? "the check found problems"
      line += " · " + console.styled("damaged", .red) + ": " + finding
    case "failed"?:
      line += " · the integrity check could not run: " + (store.checkFindings?.first ?? "unknown")
    default: break
    }
    if let rebuild = store.rebuild {
      let what = rebuild.purpose == "salvage" ? "a copy of its readable rows" : "a copy in the current layout"
      switch rebuild.state {
      case "copied": line += " · \(what) is ready: the next start of dashpilotd switches to it"
      case "failed": line += " · \(what) failed; it is tried again"
      default: line += " · making \(what) (\(rebuild.copiedSamples) samples so far)"
      }
    }
    return line
  }
}
