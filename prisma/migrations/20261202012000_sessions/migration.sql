-- Sessions that end when the user ends them (docs/security.md "Session tokens"): every session token names a row
-- here, and a token whose row has ended is refused, whichever gateway signed it. Disabling an account refuses its
-- keys (accounts.disabled_at) and ends its sessions.
ALTER TABLE "accounts" ADD COLUMN "disabled_at" TIMESTAMP(3);

CREATE TABLE "account_sessions" (
    "id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "kind" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMP(3) NOT NULL,
    "ended_at" TIMESTAMP(3),

    CONSTRAINT "account_sessions_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "account_sessions_account_id_idx" ON "account_sessions"("account_id");

ALTER TABLE "account_sessions" ADD CONSTRAINT "account_sessions_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- A new password or a disabled account ends every session of the account, whoever wrote the change (the admin
-- command, a future password route, a hand-written UPDATE). Re-enabling revives none.
CREATE FUNCTION end_account_sessions() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "account_sessions" SET "ended_at" = CURRENT_TIMESTAMP WHERE "account_id" = NEW."id" AND "ended_at" IS NULL;
  RETURN NULL;
END
$$;

CREATE TRIGGER accounts_end_sessions
  AFTER UPDATE OF password_hash, disabled_at ON accounts
  FOR EACH ROW
  WHEN (OLD.password_hash IS DISTINCT FROM NEW.password_hash OR (NEW.disabled_at IS NOT NULL AND OLD.disabled_at IS NULL))
  EXECUTE FUNCTION end_account_sessions();

-- Kept API keys are forgotten when an account is disabled or enabled too (gateway/auth/credential-cache.ts).
DROP TRIGGER accounts_credentials_changed ON accounts;
CREATE TRIGGER accounts_credentials_changed
  AFTER UPDATE OF plan, disabled_at OR DELETE OR TRUNCATE ON accounts
  FOR EACH STATEMENT EXECUTE FUNCTION credentials_changed();
