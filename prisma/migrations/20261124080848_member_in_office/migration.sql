-- AlterTable
ALTER TABLE "members" ADD COLUMN     "in_office" BOOLEAN NOT NULL DEFAULT true;
