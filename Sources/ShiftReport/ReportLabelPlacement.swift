import FoundationEssentials

/// Where the map's labels go: inside the map, off the north arrow, the scale bar, the
/// markers and each other, clear of every line drawn, never across the gap a label names;
/// a gap's label with no such room is left to the list beneath the drawing. A label's white halo would otherwise rub out the very line it
/// explains, and a label past the map's edge is cut off by the page.
struct ReportLabelPlacement {
  typealias Point = (x: Double, y: Double)

  let map: ReportRect
  /// Each segment drawn (of the stretches and gaps), filed under every cell of a square
  /// grid its bounding box touches: a label is checked against the few segments near it,
  /// not every one of a long shift.
  let segments: [Int: [(Point, Point)]]
  static let cell = 32.0
  /// What no label may cover: the north arrow, the scale bar, the markers, the labels
  /// placed so far.
  private(set) var taken: [ReportRect]

  /// Clear space between a label's box and what it must not touch.
  static let clearance = 3.0
  /// Clear space between a label's box and any line drawn.
  static let lineClearance = 5.0

  init(map: ReportRect, reserved: [ReportRect], lines: [[Point]]) {
    self.map = map
    self.taken = reserved
    var segments: [Int: [(Point, Point)]] = [:]
    for line in lines {
      for index in line.indices.dropFirst() {
        let a = line[index - 1]
        let b = line[index]
        for key in Self.cells(
          covering: ReportRect(x: min(a.x, b.x), y: min(a.y, b.y), width: abs(b.x - a.x), height: abs(b.y - a.y)))
        {
          segments[key, default: []].append((a, b))
        }
      }
    }
    self.segments = segments
  }

  /// The keys of the grid cells `box` touches.
  static func cells(covering box: ReportRect) -> [Int] {
    guard box.x.isFinite, box.y.isFinite, box.width.isFinite, box.height.isFinite else { return [] }
    let columns = Int((box.x / cell).rounded(.down))...Int(((box.x + box.width) / cell).rounded(.down))
    let rows = Int((box.y / cell).rounded(.down))...Int(((box.y + box.height) / cell).rounded(.down))
    // Drawing units are a few thousand at most: a row of 100,000 cells is never reached.
    return rows.flatMap { row in columns.map { row * 100_000 + $0 } }
  }

  /// The box `text` takes at `size`: the report's sans-serif is about 0.56 of its size a
  /// character, plus the halo; the box runs from the cap height to the descenders.
  static func box(_ text: String, size: Double, centreX: Double, centreY: Double) -> ReportRect {
    let width = Double(text.count) * size * 0.56 + 3
    let height = size + 3
    return ReportRect(x: centreX - width / 2, y: centreY - height / 2, width: width, height: height)
  }

  /// The baseline for a box placed by `box`: its middle is the middle of the cap height.
  static func baseline(of box: ReportRect, size: Double) -> Double { box.y + box.height / 2 + size * 0.35 }

  /// The first of `candidates` (each moved inside the map, or slid sideways off what it
  /// covers) that is clear of everything and not across `gap`, the line it names; it is
  /// then taken. Nil when none is: a label laid over another, or over the drawing, would
  /// hide what the report is for.
  mutating func placeClear(_ candidates: [ReportRect], naming gap: (Point, Point)? = nil) -> ReportRect? {
    for box in candidates.map(inside).flatMap({ [$0] + slid($0) }) {
      if let gap, Self.crosses(box, from: gap.0, to: gap.1) { continue }
      if isClear(box) {
        taken.append(box)
        return box
      }
    }
    return nil
  }

  /// As `placeClear`, else the first candidate: for what is always labelled (the start,
  /// the end, a departure), which are few and placed first.
  mutating func place(_ candidates: [ReportRect]) -> ReportRect {
    if let box = placeClear(candidates) { return box }
    let box = inside(candidates[0])
    taken.append(box)
    return box
  }

  /// Boxes for a gap's label around the middle of the line from `a` to `b`, nearest first:
  /// towards the top of the page across the line, then the other way, then left, right,
  /// up and down; each as near as it can be without touching the line, and farther out.
  func besideLine(_ text: String, size: Double, from a: Point, to b: Point) -> [ReportRect] {
    let dx = b.x - a.x
    let dy = b.y - a.y
    let length = (dx * dx + dy * dy).squareRoot()
    var normal = length > 0 ? (x: -dy / length, y: dx / length) : (x: 0.0, y: -1.0)
    if normal.y > 0 { normal = (-normal.x, -normal.y) }
    let middle = (x: (a.x + b.x) / 2, y: (a.y + b.y) / 2)
    let directions = [normal, (-normal.x, -normal.y), (-1, 0), (1, 0), (0, -1), (0, 1)]
    var candidates: [(distance: Double, box: ReportRect)] = []
    for direction in directions {
      func box(_ distance: Double) -> ReportRect {
        inside(
          Self.box(
            text, size: size, centreX: middle.x + direction.0 * distance, centreY: middle.y + direction.1 * distance))
      }
      guard
        let nearest = stride(from: 0.0, through: 240, by: 2).first(where: { !Self.crosses(box($0), from: a, to: b) })
      else { continue }
      for farther in [0.0, 8, 16, 24, 32, 48, 64] { candidates.append((nearest + farther, box(nearest + farther))) }
    }
    // Stable: at equal distance the order above decides.
    return candidates.enumerated().sorted { ($0.element.distance, $0.offset) < ($1.element.distance, $1.offset) }
      .map(\.element.box)
  }

  /// Boxes for a marker's label `rise` units above `point` (below when negative): to its
  /// right, to its left, then each a line farther out.
  static func besideMarker(_ text: String, size: Double, at point: Point, rise: Double) -> [ReportRect] {
    let width = box(text, size: size, centreX: 0, centreY: 0).width
    var candidates: [ReportRect] = []
    for step in [0.0, 14, 28] {
      let centreY = point.y - (rise + (rise < 0 ? -step : step)) - size * 0.35
      candidates.append(box(text, size: size, centreX: point.x + 10 + width / 2, centreY: centreY))
      candidates.append(box(text, size: size, centreX: point.x - 10 - width / 2, centreY: centreY))
    }
    return candidates
  }

  /// `box` slid left and right off each taken box it covers, staying inside the map.
  func slid(_ box: ReportRect) -> [ReportRect] {
    var moves: [ReportRect] = []
    for obstacle in taken where Self.overlaps(box, obstacle) {
      for x in [obstacle.x - Self.clearance - box.width, obstacle.x + obstacle.width + Self.clearance] {
        var moved = box
        moved.x = x
        if inside(moved) == moved { moves.append(moved) }
      }
    }
    return moves
  }

  /// Whether `box` is off everything taken and every line drawn.
  func isClear(_ box: ReportRect) -> Bool {
    if taken.contains(where: { Self.overlaps(box, $0) }) { return false }
    // The lines' own width and a little air: a label touching a stroke reads as across it.
    let air = Self.lineClearance
    let grown = ReportRect(x: box.x - air, y: box.y - air, width: box.width + 2 * air, height: box.height + 2 * air)
    for key in Self.cells(covering: grown) {
      for (a, b) in segments[key] ?? [] where Self.crosses(grown, from: a, to: b) { return false }
    }
    return true
  }

  func inside(_ box: ReportRect) -> ReportRect {
    var box = box
    let c = Self.clearance
    box.x = min(max(box.x, map.x + c), map.x + map.width - c - box.width)
    box.y = min(max(box.y, map.y + c), map.y + map.height - c - box.height)
    return box
  }

  static func overlaps(_ a: ReportRect, _ b: ReportRect) -> Bool {
    a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height
  }

  /// Whether the segment from `a` to `b` passes through `box` (Liang–Barsky clipping).
  static func crosses(_ box: ReportRect, from a: Point, to b: Point) -> Bool {
    let dx = b.x - a.x
    let dy = b.y - a.y
    var low = 0.0
    var high = 1.0
    let sides = [
      (-dx, a.x - box.x), (dx, box.x + box.width - a.x), (-dy, a.y - box.y), (dy, box.y + box.height - a.y),
    ]
    for (p, q) in sides {
      if p == 0 {
        if q < 0 { return false }
      } else {
        let t = q / p
        if p < 0 { low = max(low, t) } else { high = min(high, t) }
        if low > high { return false }
      }
    }
    return true
  }
}
