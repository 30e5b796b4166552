-- markets_refresh_rollups() refreshes every materialized view named market_* (none reads another), instead of a
-- list that each new rollup's migration had to write out again in full. A new rollup now needs only its
-- CREATE MATERIALIZED VIEW and the unique index that CONCURRENTLY requires.
CREATE OR REPLACE FUNCTION markets_refresh_rollups() RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  rollup name;
BEGIN
  FOR rollup IN
    SELECT matviewname FROM pg_matviews
     WHERE schemaname = current_schema() AND matviewname LIKE 'market\_%'
     ORDER BY matviewname
  LOOP
    EXECUTE format('REFRESH MATERIALIZED VIEW CONCURRENTLY %I', rollup);
  END LOOP;
END $$;
