import DashPilotCore

/// Version 1 of the office's schema: the views people and tools read (QGIS, psql,
/// ogr2ogr, Grafana).
///
/// `stretches` applies the measurement's continuity rule in SQL, because a map tool can
/// only read SQL: two adjacent positions of a shift are one stretch when they share a
/// capture session and are at most `RouteMileageCalculator`'s interval apart (the number is
/// the core's own, written in here), and a held sample continues a stretch without adding
/// distance. `OfficeStretchesAgreementTests` checks it against the core's calculator on the
/// same rows, stretch by stretch. A line is never drawn across a capture gap.
enum OfficeSchemaViews {
  static var maximumInterval: Int { Int(RouteMileageCalculator.defaultMaximumSampleInterval) }

  static var sql: String {
    """
    -- One LINESTRING per unbroken stretch of capture (two positions or more: a lone fix
    -- contributes no distance), with its geodesic length on the WGS 84 spheroid, the moves
    -- to held samples left out. The capture gaps between stretches are never drawn.
    CREATE VIEW stretches AS
    WITH ordered AS (
      SELECT vehicle, shift, time, position, held, capture_session,
        lag(time) OVER w AS previous_time,
        lag(capture_session) OVER w AS previous_session,
        lag(position) OVER w AS previous_position
      FROM samples
      WINDOW w AS (PARTITION BY vehicle, shift ORDER BY time)
    ), marked AS (
      SELECT *,
        previous_time IS NULL OR capture_session IS DISTINCT FROM previous_session
          OR time - previous_time > interval '\(maximumInterval) seconds' AS breaks
      FROM ordered
    ), numbered AS (
      SELECT *, count(*) FILTER (WHERE breaks) OVER (PARTITION BY vehicle, shift ORDER BY time) AS stretch
      FROM marked
    )
    SELECT vehicle || '/' || shift || '/' || stretch AS id, vehicle, shift, stretch::integer AS stretch,
      min(capture_session) AS capture_session, min(time) AS started_at, max(time) AS ended_at,
      count(*)::integer AS positions,
      coalesce(sum(ST_Distance(previous_position::geography, position::geography))
        FILTER (WHERE NOT breaks AND NOT held), 0) AS metres,
      ST_MakeLine(position ORDER BY time)::geometry(LineString, 4326) AS line
    FROM numbered
    GROUP BY vehicle, shift, stretch
    HAVING count(*) >= 2;

    -- Each completed shift: the geodesic length of its stretches beside the box's own figure
    -- (a haversine on a sphere; the two differ by the Earth's flattening, a few tenths of a
    -- per cent at most).
    CREATE VIEW shift_distance AS
    SELECT s.vehicle, s.shift, s.started_at, s.ended_at, s.metres AS box_metres,
      s.segments AS box_segments, s.gaps AS box_gaps, s.partial, s.summary,
      coalesce(t.metres, 0) AS metres, coalesce(t.stretches, 0) AS stretches,
      CASE WHEN s.metres > 0 THEN coalesce(t.metres, 0) / s.metres END AS ratio
    FROM shifts s
    LEFT JOIN LATERAL (
      SELECT sum(metres) AS metres, count(*)::integer AS stretches
      FROM stretches WHERE stretches.vehicle = s.vehicle AND stretches.shift = s.shift
    ) t ON true;

    -- Per vehicle, the sequences never received: the box's outbox dropped them while it was
    -- offline too long, or they are still on their way. `age` is how long ago the box queued
    -- the message that followed them: they are at least that old.
    CREATE VIEW holes AS
    SELECT vehicle, previous + 1 AS first_missing, sequence - 1 AS last_missing,
      sequence - previous - 1 AS missing, queued_at AS queued_before, now() - queued_at AS age
    FROM (
      SELECT vehicle, sequence, queued_at,
        coalesce(lag(sequence) OVER (PARTITION BY vehicle ORDER BY sequence), 0) AS previous
      FROM ledger
    ) l
    WHERE sequence - previous > 1;

    -- Each vehicle's last position and status: the newest sample of its newest shift, the
    -- retained online/offline, and whether that shift is still open (no shift message yet).
    CREATE VIEW live AS
    SELECT v.vehicle, v.status, v.status_since, s.shift,
      s.shift IS NOT NULL AND NOT EXISTS (
        SELECT 1 FROM shifts WHERE shifts.vehicle = v.vehicle AND shifts.shift = s.shift) AS shift_open,
      s.time, now() - s.time AS age, s.accuracy, s.speed, s.course, s.position
    FROM vehicles v
    LEFT JOIN LATERAL (
      SELECT shift, time, accuracy, speed, course, position FROM samples
      WHERE samples.vehicle = v.vehicle ORDER BY shift DESC, time DESC LIMIT 1
    ) s ON true;
    """
  }
}
