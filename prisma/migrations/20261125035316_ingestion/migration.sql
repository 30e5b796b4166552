-- Live ingestion (scripts/ingest/): the scheduled jobs with their lease and conditional-request state, and a
-- record of every run (docs/data-sources.md "Live ingestion").
-- CreateTable
CREATE TABLE "ingest_jobs" (
    "name" TEXT NOT NULL,
    "validators" JSONB NOT NULL DEFAULT '{}',
    "next_run_at" TIMESTAMP(3),
    "lease_until" TIMESTAMP(3),
    "lease_holder" TEXT,

    CONSTRAINT "ingest_jobs_pkey" PRIMARY KEY ("name")
);

-- CreateTable
CREATE TABLE "source_runs" (
    "id" BIGSERIAL NOT NULL,
    "source" TEXT NOT NULL,
    "trigger" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "started_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished_at" TIMESTAMP(3),
    "http_status" INTEGER,
    "requests" INTEGER NOT NULL DEFAULT 0,
    "bytes" BIGINT NOT NULL DEFAULT 0,
    "files" JSONB NOT NULL DEFAULT '[]',
    "counts" JSONB,
    "rejected" INTEGER NOT NULL DEFAULT 0,
    "error" TEXT,
    "holder" TEXT NOT NULL,
    "records" INTEGER,
    "newest_record" DATE,

    CONSTRAINT "source_runs_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "source_runs_source_started_at_idx" ON "source_runs"("source", "started_at" DESC);
