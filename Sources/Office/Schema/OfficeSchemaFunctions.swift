/// Version 1 of the office's schema: the monthly partitions (made ahead by the service,
/// and on demand for any month a row needs: a box back after months offline sends old
/// months, and no row is refused), detaching a month, and the order of a job's states.
///
/// The office makes its own partitions rather than using pg_partman: it needs exactly two
/// things, a month made the moment a row needs it (from inside the ingest, under a lock,
/// whatever the month) and a month detached whole; pg_partman would add an extension to
/// install, its background worker or a cron job, and a default partition whose rows it
/// moves later, for nothing more.
enum OfficeSchemaFunctions {
  static let sql = """
    -- The partition of `parent` holding `month` (any instant in it, UTC), made if missing:
    -- PARENT_yYYYYmMM, or PARENT_yYYYYmMM_rN when a detached month's table holds that name.
    CREATE FUNCTION office_month_partition(parent regclass, month timestamptz) RETURNS regclass
    LANGUAGE plpgsql AS $$
    DECLARE
      -- Month arithmetic on UTC wall time, so the session's time zone moves no bound.
      utc_first timestamp := date_trunc('month', month AT TIME ZONE 'UTC');
      base text := parent::text || '_y' || to_char(month AT TIME ZONE 'UTC', 'YYYY')
        || 'm' || to_char(month AT TIME ZONE 'UTC', 'MM');
      candidate text := base;
      found regclass;
      attempt integer := 1;
    BEGIN
      PERFORM pg_advisory_xact_lock(hashtext('dashpilot-office-partition:' || base));
      SELECT i.inhrelid::regclass INTO found
        FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
        WHERE i.inhparent = parent AND (c.relname = base OR c.relname LIKE base || '\\_r%')
        LIMIT 1;
      IF found IS NOT NULL THEN
        RETURN found;
      END IF;
      WHILE to_regclass(candidate) IS NOT NULL LOOP
        attempt := attempt + 1;
        candidate := base || '_r' || attempt;
      END LOOP;
      EXECUTE format('CREATE TABLE %I PARTITION OF %s FOR VALUES FROM (%L) TO (%L)',
        candidate, parent, utc_first AT TIME ZONE 'UTC', (utc_first + interval '1 month') AT TIME ZONE 'UTC');
      RETURN candidate::regclass;
    END $$;

    -- Partitions from `months_back` months before now to `months_ahead` after, for every
    -- partitioned table; the service runs it at start and every hour.
    CREATE FUNCTION office_partitions_ahead(months_back integer, months_ahead integer) RETURNS integer
    LANGUAGE plpgsql AS $$
    DECLARE
      parent regclass;
      step integer;
      made integer := 0;
    BEGIN
      FOREACH parent IN ARRAY ARRAY['samples'::regclass, 'events'::regclass, 'ledger'::regclass] LOOP
        FOR step IN -months_back..months_ahead LOOP
          PERFORM office_month_partition(
            parent, (now() AT TIME ZONE 'UTC' + make_interval(months => step)) AT TIME ZONE 'UTC');
          made := made + 1;
        END LOOP;
      END LOOP;
      RETURN made;
    END $$;

    -- Detaches the month holding `month` from samples, events and the ledger: the tables
    -- stay (archive or drop them), the office no longer reads them, nothing is deleted row
    -- by row. A box that later sends rows of that month gets a fresh partition for them.
    CREATE FUNCTION office_detach_month(month timestamptz) RETURNS SETOF text
    LANGUAGE plpgsql AS $$
    DECLARE
      parent regclass;
      part regclass;
      base text;
    BEGIN
      FOREACH parent IN ARRAY ARRAY['samples'::regclass, 'events'::regclass, 'ledger'::regclass] LOOP
        base := parent::text || '_y' || to_char(month AT TIME ZONE 'UTC', 'YYYY')
          || 'm' || to_char(month AT TIME ZONE 'UTC', 'MM');
        FOR part IN SELECT i.inhrelid::regclass FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
            WHERE i.inhparent = parent AND (c.relname = base OR c.relname LIKE base || '\\_r%') LOOP
          EXECUTE format('ALTER TABLE %s DETACH PARTITION %s', parent, part);
          RETURN NEXT part::text;
        END LOOP;
      END LOOP;
    END $$;

    -- queued < arrived < visited, not_reached, cancelled: a job's row keeps the furthest.
    CREATE FUNCTION office_job_rank(state text) RETURNS integer
    LANGUAGE sql IMMUTABLE AS $$
      SELECT CASE state WHEN 'queued' THEN 0 WHEN 'arrived' THEN 1 ELSE 2 END
    $$;
    """
}
