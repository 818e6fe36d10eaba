/// Version 1 of the office's schema: the tables. Every key starts with the vehicle, so the
/// schema distributes unchanged by vehicle (Citus: `create_distributed_table(T, 'vehicle')`).
/// Samples, events and the ledger are partitioned by month (`OfficeSchemaFunctions`).
enum OfficeSchemaTables {
  static let sql = """
    CREATE EXTENSION IF NOT EXISTS postgis;

    -- Every vehicle heard from, and its retained status (online since, or offline).
    CREATE TABLE vehicles (
      vehicle text PRIMARY KEY,
      first_seen timestamptz NOT NULL DEFAULT now(),
      status text CHECK (status IN ('online', 'offline')),
      status_since timestamptz,
      status_at timestamptz
    );

    -- Each completed shift with the box's figure exactly as sent (dashpilot.shift/1).
    CREATE TABLE shifts (
      vehicle text NOT NULL,
      shift bigint NOT NULL,
      started_at timestamptz NOT NULL,
      ended_at timestamptz NOT NULL,
      started_by text,
      ended_by text,
      metres double precision NOT NULL,
      value double precision,
      unit text NOT NULL,
      segments integer NOT NULL,
      gaps integer NOT NULL,
      usable_positions integer NOT NULL,
      inferred_continuity boolean NOT NULL,
      measured boolean NOT NULL,
      partial boolean NOT NULL,
      summary text NOT NULL,
      distance jsonb NOT NULL,
      key text NOT NULL,
      sequence bigint NOT NULL,
      queued_at timestamptz NOT NULL,
      PRIMARY KEY (vehicle, shift)
    );

    -- Every retained position; a sample is the same sample by vehicle, shift and time.
    CREATE TABLE samples (
      vehicle text NOT NULL,
      shift bigint NOT NULL,
      time timestamptz NOT NULL,
      position geometry(Point, 4326) NOT NULL,
      accuracy real NOT NULL,
      speed real,
      course real,
      held boolean NOT NULL DEFAULT false,
      accuracy_assumed boolean NOT NULL DEFAULT false,
      dated_by_arrival boolean NOT NULL DEFAULT false,
      capture_session text,
      sequence bigint NOT NULL,
      PRIMARY KEY (vehicle, shift, time)
    ) PARTITION BY RANGE (time);
    CREATE INDEX samples_position ON samples USING gist (position);

    -- Capture sessions starting and ending, with capture's reason (why a route has a gap).
    CREATE TABLE sessions (
      vehicle text NOT NULL,
      capture_session text NOT NULL,
      event text NOT NULL CHECK (event IN ('start', 'end')),
      shift bigint,
      at timestamptz NOT NULL,
      reason text NOT NULL,
      sequence bigint NOT NULL,
      queued_at timestamptz NOT NULL,
      PRIMARY KEY (vehicle, capture_session, event)
    );

    -- Each stop as the box listed it (dashpilot.stop/1); `stop` is the object as sent.
    CREATE TABLE stops (
      vehicle text NOT NULL,
      arrival timestamptz NOT NULL,
      shift bigint,
      departure timestamptz NOT NULL,
      duration_s double precision NOT NULL,
      start text NOT NULL,
      "end" text NOT NULL,
      cut text,
      position geometry(Point, 4326) NOT NULL,
      wander_m double precision NOT NULL,
      positions integer NOT NULL,
      place text,
      stop jsonb NOT NULL,
      sequence bigint NOT NULL,
      PRIMARY KEY (vehicle, arrival)
    );

    -- The office's jobs as the boxes told them, each in the furthest state heard
    -- (queued < arrived < visited, not_reached, cancelled), with the visit's evidence.
    CREATE TABLE jobs (
      vehicle text NOT NULL,
      id text NOT NULL,
      name text NOT NULL,
      destination geometry(Point, 4326) NOT NULL,
      radius_m double precision NOT NULL,
      window_start timestamptz,
      window_end timestamptz,
      note text,
      state text NOT NULL,
      shift bigint,
      visit_arrival timestamptz,
      visit_departure timestamptz,
      visit_duration_s double precision,
      visit_distance_m double precision,
      receiver_reported_throughout boolean,
      within_window boolean,
      stop_end text,
      job jsonb NOT NULL,
      sequence bigint NOT NULL,
      PRIMARY KEY (vehicle, id)
    );

    -- Guidance, shift, place and job events (dashpilot.event/1), the event as sent; the
    -- same event is the same row however often it is sent (`digest`: md5 of it).
    CREATE TABLE events (
      vehicle text NOT NULL,
      time timestamptz NOT NULL,
      type text NOT NULL,
      digest uuid NOT NULL,
      shift bigint,
      sequence bigint NOT NULL,
      message text,
      event jsonb NOT NULL,
      PRIMARY KEY (vehicle, time, type, digest)
    ) PARTITION BY RANGE (time);

    -- Every key received: VEHICLE/SHIFT/SEQUENCE, once. `holes` reads the sequences.
    CREATE TABLE ledger (
      vehicle text NOT NULL,
      sequence bigint NOT NULL,
      queued_at timestamptz NOT NULL,
      shift bigint,
      kind text NOT NULL,
      key text NOT NULL,
      bytes integer NOT NULL,
      samples integer NOT NULL,
      received_at timestamptz NOT NULL,
      -- When the row went in, the batch's last statements: its commit a moment later.
      committed_at timestamptz NOT NULL DEFAULT clock_timestamp(),
      worker integer NOT NULL,
      PRIMARY KEY (vehicle, sequence, queued_at)
    ) PARTITION BY RANGE (queued_at);

    -- What was refused and why (acknowledged all the same, never retried): `vehicle` is the
    -- topic's vehicle level, `payload` its first 64 KiB; a redelivery is the same row.
    CREATE TABLE rejected (
      vehicle text NOT NULL,
      digest uuid NOT NULL,
      topic text NOT NULL,
      code text NOT NULL,
      reason text NOT NULL,
      bytes integer NOT NULL,
      payload bytea NOT NULL,
      received_at timestamptz NOT NULL,
      worker integer NOT NULL,
      PRIMARY KEY (vehicle, digest)
    );

    -- One row per worker process, written with each batch and every few seconds.
    CREATE TABLE workers (
      worker integer PRIMARY KEY,
      host text NOT NULL,
      pid integer NOT NULL,
      client_id text NOT NULL,
      started_at timestamptz NOT NULL,
      heartbeat_at timestamptz NOT NULL,
      broker_connected boolean NOT NULL,
      messages bigint NOT NULL DEFAULT 0,
      samples bigint NOT NULL DEFAULT 0,
      rejected bigint NOT NULL DEFAULT 0,
      batches bigint NOT NULL DEFAULT 0,
      messages_per_second double precision NOT NULL DEFAULT 0,
      samples_per_second double precision NOT NULL DEFAULT 0,
      last_commit_at timestamptz,
      lag_s double precision,
      last_error text
    );
    """
}
