-- Open event streams (subgraphs/markets/events/event-tail.ts) read the log when it grows. A statement trigger
-- announces every insert into it, by any writer (an import, the API, a hand-written INSERT), on every gateway's
-- listening connection. The notice fires at commit and carries nothing: it is a wake-up to read the log, never
-- the log itself (a notice is not replayed, and an event is readable only once older transactions have ended).
CREATE FUNCTION events_appended() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('events_appended', '');
  RETURN NULL;
END
$$;

CREATE TRIGGER webhook_events_appended
  AFTER INSERT ON webhook_events
  FOR EACH STATEMENT EXECUTE FUNCTION events_appended();
