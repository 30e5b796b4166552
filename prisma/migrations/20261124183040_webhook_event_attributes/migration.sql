-- AlterTable
ALTER TABLE "webhook_events" ADD COLUMN     "attributes" JSONB NOT NULL DEFAULT '{}';
