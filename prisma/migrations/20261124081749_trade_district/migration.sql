-- AlterTable
ALTER TABLE "congressional_trades" ADD COLUMN     "district" TEXT;
