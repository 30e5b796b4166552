-- AlterTable
ALTER TABLE "company_profiles" ADD COLUMN     "founded" TEXT;
