-- The times a delivery claim compares with now() gain a time zone and full precision (schema.prisma says why).
-- Stored values are UTC wall times (written from JavaScript or by a UTC session), read as such.
ALTER TABLE "webhook_deliveries"
  ALTER COLUMN "next_attempt_at" SET DATA TYPE TIMESTAMPTZ(6) USING "next_attempt_at" AT TIME ZONE 'UTC',
  ALTER COLUMN "locked_until" SET DATA TYPE TIMESTAMPTZ(6) USING "locked_until" AT TIME ZONE 'UTC';
