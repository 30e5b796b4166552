-- AlterTable
ALTER TABLE "report_jobs" ADD COLUMN     "record_type" TEXT NOT NULL DEFAULT '';
