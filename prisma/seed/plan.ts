import { CHUNK_ROWS, csvChunks, type Row } from './copy.ts';
import type { SeedContext } from './context.ts';
import { BRIEFING_COLUMNS, BRIEFING_DAYS, briefingRows, type DayTopSignal } from './generate/briefing.ts';
import { TRADE_COLUMNS, congressionalTradeRows, tradeCount } from './generate/congressional-trade.ts';
import {
  INSIDER_TRANSACTION_COLUMNS,
  insiderTransactionCount,
  insiderTransactionRows,
} from './generate/insider-transaction.ts';
import {
  DAILY_PRICE_COLUMNS,
  MARKET_TICKERS,
  PRICE_DAYS,
  PROFILE_COLUMNS,
  dailyPriceRows,
  profileRows,
} from './generate/market-data.ts';
import { MEMBER_COLUMNS, buildMembers, memberRows } from './generate/member.ts';
import { MACRO_COLUMNS, TENORS, YIELD_COLUMNS, macroRows, yieldCurveRows, yieldCurves } from './generate/rates.ts';
import { SIGNAL_COLUMNS, signalCount, signalRows } from './generate/signal.ts';
import type { RecordSeed } from './record-seed.ts';
import { RECORD_TYPES } from '../../subgraphs/verticals/record-type/catalog.ts';
import type { RecordType } from '../../subgraphs/verticals/record-type/define.ts';

/**
 * Every table the generator fills, in load order (parents before children, signals before briefings), with
 * its columns and a row count for progress. Counts are exact except contacts (2-5 per company, estimated).
 */
export interface TableLoad {
  table: SeedTable;
  columns: readonly string[];
  expectedRows: number;
  /** Integer `id` filled explicitly: its sequence is moved past the loaded ids afterwards. */
  serialId: boolean;
  rows(): Iterable<Row>;
}

/**
 * The record tables in load chains: each record type after the types it references (contacts after companies,
 * properties after owners), one chain per record type that references none. Chains are independent of one
 * another, so PostgreSQL can load several side by side.
 */
function recordChains(types: readonly RecordType[]): string[][] {
  const after = (parent: RecordType): string[] =>
    types
      .filter((type) => Object.values(type.references).includes(parent.name))
      .flatMap((child) => [child.table, ...after(child)]);
  return types.filter((type) => Object.keys(type.references).length === 0).map((root) => [root.table, ...after(root)]);
}

/** Market data: briefings are written from the loaded signals, so the whole chain loads in this order. */
const MARKET_CHAIN = [
  'members',
  'company_profiles',
  'daily_prices',
  'signals',
  'insider_transactions',
  'congressional_trades',
  'yield_curve_points',
  'macro_indicators',
  'briefings',
] as const;

export const LOAD_CHAINS: readonly (readonly string[])[] = [...recordChains(RECORD_TYPES), MARKET_CHAIN];

/** Every table the generator fills, in load order within each chain. */
export const SEED_TABLES: readonly string[] = LOAD_CHAINS.flat();
export type SeedTable = string;

/** Each record type's generator entry, prisma/seed/records/<kind>.ts (see record-seed.ts). */
async function recordSeedOf(type: RecordType): Promise<RecordSeed> {
  const module = (await import(new URL(`./records/${type.kind}.ts`, import.meta.url).href)) as {
    recordSeed?: RecordSeed;
  };
  if (!module.recordSeed) throw new Error(`prisma/seed/records/${type.kind}.ts exports no recordSeed`);
  return module.recordSeed;
}

/** All tables but briefings, which are written from the loaded signals (`briefingLoad`). */
export async function planTables(ctx: SeedContext): Promise<TableLoad[]> {
  const curveDays = yieldCurves(ctx).length;
  const load = (
    table: SeedTable,
    columns: readonly string[],
    expectedRows: number,
    rows: () => Iterable<Row>,
    serialId = false,
  ): TableLoad => ({ table, columns, expectedRows, serialId, rows });
  const records = await Promise.all(
    RECORD_TYPES.map(async (type) => {
      const seed = await recordSeedOf(type);
      return load(type.table, seed.columns, seed.expectedRows(ctx), () => seed.rows(ctx), true);
    }),
  );
  return [
    ...records,
    load('members', MEMBER_COLUMNS, buildMembers(ctx).length, () => memberRows(ctx)),
    load('company_profiles', PROFILE_COLUMNS, MARKET_TICKERS.length, () => profileRows(ctx)),
    load('daily_prices', DAILY_PRICE_COLUMNS, MARKET_TICKERS.length * PRICE_DAYS, () => dailyPriceRows(ctx)),
    load('signals', SIGNAL_COLUMNS, signalCount(ctx.scale), () => signalRows(ctx)),
    load('insider_transactions', INSIDER_TRANSACTION_COLUMNS, insiderTransactionCount(ctx.scale), () =>
      insiderTransactionRows(ctx),
    ),
    load('congressional_trades', TRADE_COLUMNS, tradeCount(ctx.scale), () => congressionalTradeRows(ctx)),
    load('yield_curve_points', YIELD_COLUMNS, curveDays * TENORS.length, () => yieldCurveRows(ctx)),
    load('macro_indicators', MACRO_COLUMNS, 3 * 60 + 2 * curveDays, () => macroRows(ctx)),
  ];
}

export function briefingLoad(ctx: SeedContext, topSignals: readonly DayTopSignal[]): TableLoad {
  return {
    table: 'briefings',
    columns: BRIEFING_COLUMNS,
    expectedRows: BRIEFING_DAYS,
    serialId: false,
    rows: () => briefingRows(ctx, topSignals),
  };
}

/** A table's CSV exactly as COPY receives it, chunk by chunk (the determinism test hashes this). */
export function tableCsv(load: TableLoad, rowsPerChunk = CHUNK_ROWS): Iterable<string> {
  return csvChunks(load.rows(), rowsPerChunk);
}
