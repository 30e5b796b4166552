-- Gateways keep the credentials they have checked in memory (gateway/auth/credential-cache.ts) and forget them
-- all when PostgreSQL announces a change that could refuse one: a key revoked, re-bound or deleted, an
-- account's plan changed or the account deleted. Statement triggers, so a bulk change sends one notice, and
-- every writer (the API, the admin command, a hand-written UPDATE) is covered. Usage counts (calls_used,
-- last_used_at) are not in the lists: they change on every flush and refuse nothing.
CREATE FUNCTION credentials_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('credentials_changed', TG_TABLE_NAME);
  RETURN NULL;
END
$$;

CREATE TRIGGER api_keys_credentials_changed
  AFTER UPDATE OF hash, account_id, mode, revoked_at OR DELETE OR TRUNCATE ON api_keys
  FOR EACH STATEMENT EXECUTE FUNCTION credentials_changed();

CREATE TRIGGER accounts_credentials_changed
  AFTER UPDATE OF plan OR DELETE OR TRUNCATE ON accounts
  FOR EACH STATEMENT EXECUTE FUNCTION credentials_changed();
