-- Live ingestion: a listed document that answers but cannot be used (a 404, an error page) is counted, so the
-- EDGAR run asks for documents not yet tried first and leaves one after five such answers (edgar-follow.ts).
-- AlterTable
ALTER TABLE "filings" ADD COLUMN     "fetch_attempts" INTEGER NOT NULL DEFAULT 0;

-- The Form 4s still to fetch, in the order the run takes them (most filings never become fetched: the index
-- lists every form of the day).
CREATE INDEX "filings_form4_to_fetch_idx" ON "filings" ("fetch_attempts", "filed_at" DESC, "accession_number")
  WHERE "fetched_at" IS NULL AND "form_type" IN ('4', '4/A');
