-- CreateTable
CREATE TABLE "briefing_publications" (
    "day" DATE NOT NULL,
    "published_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "briefing_publications_pkey" PRIMARY KEY ("day")
);

-- CreateTable
CREATE TABLE "convergence_lead_states" (
    "ticker" TEXT NOT NULL,
    "score" DOUBLE PRECISION NOT NULL,
    "lead" JSONB NOT NULL,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "convergence_lead_states_pkey" PRIMARY KEY ("ticker")
);
