import FoundationEssentials

/// The key beneath the drawing, one sample of each kind of mark that is drawn, so the
/// picture reads without colour: solid is counted, dashed is not.
struct ShiftReportLegend {
  enum Symbol { case stretch, gap, lonePosition, start, end, route, offRoute, stop, job, place }

  struct Item {
    var symbol: Symbol
    var text: String
    /// Its width on the drawing: the symbol, its text (about 6.6 units a character at 12)
    /// and the space before the next.
    var width: Double { 34 + Double(text.count) * 6.6 + 18 }
  }

  var items: [Item]

  static func items(_ content: ShiftReportContent) -> ShiftReportLegend {
    // Only what the drawing holds: a key to a symbol drawn nowhere would be read as missing.
    var items = [Item(symbol: .stretch, text: "recorded, counted")]
    if !content.gapLabels.isEmpty && content.stretches.filter({ !$0.isEmpty }).count > 1 {
      items.append(Item(symbol: .gap, text: "capture gap, not counted"))
    }
    if content.stretches.contains(where: { $0.count == 1 }) {
      items.append(Item(symbol: .lonePosition, text: "lone fix, no distance"))
    }
    items += [Item(symbol: .start, text: "start"), Item(symbol: .end, text: "end")]
    if content.route.count >= 2 {
      items.append(Item(symbol: .route, text: "route"))
    }
    if !content.offRoute.isEmpty { items.append(Item(symbol: .offRoute, text: "left the route")) }
    if !content.stops.isEmpty { items.append(Item(symbol: .stop, text: "stop: number · time stood")) }
    if !content.jobs.isEmpty { items.append(Item(symbol: .job, text: "job visited")) }
    if !content.places.isEmpty { items.append(Item(symbol: .place, text: "place")) }
    return ShiftReportLegend(items: items)
  }

  /// The items in rows that fit `width`.
  func rows(width: Double) -> [[Item]] {
    var rows: [[Item]] = [[]]
    var used = 0.0
    for item in items {
      if used + item.width > width, !(rows.last ?? []).isEmpty {
        rows.append([])
        used = 0
      }
      rows[rows.count - 1].append(item)
      used += item.width
    }
    return rows
  }

  func svg(top: Double, left: Double, width: Double) -> String {
    var svg = "<g class=\"legend\">\n"
    for (row, items) in rows(width: width).enumerated() {
      var x = left
      let y = top + Double(row) * ShiftReportLayout.legendRowHeight + 11
      for item in items {
        svg += symbol(item.symbol, x: x, y: y)
        svg +=
          SVGText.textElement(
            [("x", SVGText.number(x + 34)), ("y", SVGText.number(y + 4)), ("font-size", "12"), ("fill", "#000000")],
            item.text) + "\n"
        x += item.width
      }
    }
    return svg + "</g>\n"
  }

  /// Each symbol drawn as on the map, with a class of its own so it is never taken for a
  /// stretch or a gap of the shift.
  func symbol(_ symbol: Symbol, x: Double, y: Double) -> String {
    let n = SVGText.number
    switch symbol {
    case .stretch:
      return SVGText.element(
        "line",
        [
          ("class", "legend-stretch"), ("x1", n(x)), ("y1", n(y)), ("x2", n(x + 26)), ("y2", n(y)),
          ("stroke", "#000000"), ("stroke-width", n(ShiftReportMap.stretchWidth)), ("stroke-linecap", "round"),
        ]) + "\n"
    case .gap:
      return SVGText.element(
        "line",
        [
          ("class", "legend-gap"), ("x1", n(x)), ("y1", n(y)), ("x2", n(x + 26)), ("y2", n(y)),
          ("stroke", "#333333"), ("stroke-width", n(ShiftReportMap.gapWidth)),
          ("stroke-dasharray", ShiftReportMap.gapDashes),
        ]) + "\n"
    case .lonePosition:
      return SVGText.element(
        "circle",
        [("class", "legend-lone-position"), ("cx", n(x + 13)), ("cy", n(y)), ("r", "2.5"), ("fill", "#000000")])
        + "\n"
    case .start:
      return SVGText.element(
        "circle",
        [
          ("class", "legend-start"), ("cx", n(x + 13)), ("cy", n(y)), ("r", "6"), ("fill", "#ffffff"),
          ("stroke", "#000000"), ("stroke-width", "2.5"),
        ]) + "\n"
    case .end:
      return SVGText.element(
        "rect",
        [
          ("class", "legend-end"), ("x", n(x + 8)), ("y", n(y - 5)), ("width", "10"), ("height", "10"),
          ("fill", "#000000"),
        ]) + "\n"
    case .route:
      return SVGText.element(
        "line",
        [
          ("class", "legend-route"), ("x1", n(x)), ("y1", n(y)), ("x2", n(x + 26)), ("y2", n(y)),
          ("stroke", "#c4c4c4"), ("stroke-width", "9"), ("stroke-linecap", "round"),
        ]) + "\n"
    case .offRoute:
      let d = "M\(n(x + 8)) \(n(y - 5))L\(n(x + 18)) \(n(y + 5))M\(n(x + 8)) \(n(y + 5))L\(n(x + 18)) \(n(y - 5))"
      return SVGText.element(
        "path", [("class", "legend-off-route"), ("d", d), ("stroke", "#000000"), ("stroke-width", "2.5")]) + "\n"
    case .stop:
      let d = "M\(n(x + 13)) \(n(y - 6))L\(n(x + 19)) \(n(y))L\(n(x + 13)) \(n(y + 6))L\(n(x + 7)) \(n(y))Z"
      return SVGText.element(
        "path",
        [("class", "legend-stop"), ("d", d), ("fill", "#ffffff"), ("stroke", "#000000"), ("stroke-width", "2")])
        + "\n"
    case .job:
      let d = "M\(n(x + 13)) \(n(y - 8))L\(n(x + 20)) \(n(y + 6))L\(n(x + 6)) \(n(y + 6))Z"
      return SVGText.element(
        "path", [("class", "legend-job"), ("d", d), ("fill", "none"), ("stroke", "#000000"), ("stroke-width", "2")])
        + "\n"
    case .place:
      return SVGText.element(
        "rect",
        [
          ("class", "legend-place"), ("x", n(x + 1)), ("y", n(y - 6)), ("width", "24"), ("height", "12"),
          ("fill", ShiftReportMap.placeFill), ("stroke", ShiftReportMap.placeStroke), ("stroke-width", "1.5"),
        ]) + "\n"
    }
  }
}
