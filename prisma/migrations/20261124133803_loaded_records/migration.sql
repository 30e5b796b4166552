-- AlterTable
ALTER TABLE "attorneys" ADD COLUMN     "external_id" TEXT,
ADD COLUMN     "source" TEXT;

-- AlterTable
ALTER TABLE "companies" ADD COLUMN     "external_id" TEXT,
ADD COLUMN     "source" TEXT,
ALTER COLUMN "industry" DROP NOT NULL,
ALTER COLUMN "industry_name" DROP NOT NULL,
ALTER COLUMN "revenue_usd" DROP NOT NULL,
ALTER COLUMN "employees" DROP NOT NULL,
ALTER COLUMN "state" DROP NOT NULL,
ALTER COLUMN "city" DROP NOT NULL,
ALTER COLUMN "website" DROP NOT NULL,
ALTER COLUMN "founded_year" DROP NOT NULL,
ALTER COLUMN "decision_maker" DROP NOT NULL,
ALTER COLUMN "decision_maker_title" DROP NOT NULL,
ALTER COLUMN "decision_maker_email" DROP NOT NULL;

-- AlterTable
ALTER TABLE "contacts" ADD COLUMN     "external_id" TEXT,
ADD COLUMN     "source" TEXT;

-- AlterTable
ALTER TABLE "firms" ADD COLUMN     "external_id" TEXT,
ADD COLUMN     "source" TEXT;

-- AlterTable
ALTER TABLE "owners" ADD COLUMN     "external_id" TEXT,
ADD COLUMN     "source" TEXT;

-- AlterTable
ALTER TABLE "properties" ADD COLUMN     "external_id" TEXT,
ADD COLUMN     "source" TEXT;

-- CreateIndex
CREATE UNIQUE INDEX "attorneys_source_external_id_key" ON "attorneys"("source", "external_id");

-- CreateIndex
CREATE UNIQUE INDEX "companies_source_external_id_key" ON "companies"("source", "external_id");

-- CreateIndex
CREATE UNIQUE INDEX "contacts_source_external_id_key" ON "contacts"("source", "external_id");

-- CreateIndex
CREATE UNIQUE INDEX "firms_source_external_id_key" ON "firms"("source", "external_id");

-- CreateIndex
CREATE UNIQUE INDEX "owners_source_external_id_key" ON "owners"("source", "external_id");

-- CreateIndex
CREATE UNIQUE INDEX "properties_source_external_id_key" ON "properties"("source", "external_id");
