import { CHUNK_ROWS, csvChunks, type Row } from './copy.ts';
import type { SeedContext } from './context.ts';
import { ATTORNEY_COLUMNS, attorneyRows } from './generate/attorney.ts';
import { BRIEFING_COLUMNS, BRIEFING_DAYS, briefingRows, type DayTopSignal } from './generate/briefing.ts';
import { COMPANY_COLUMNS, companyCores, companyRows } from './generate/company.ts';
import { CONTACT_COLUMNS, contactRows } from './generate/contact.ts';
import { TRADE_COLUMNS, congressionalTradeRows, tradeCount } from './generate/congressional-trade.ts';
import { FIRM_COLUMNS, firmRows } from './generate/firm.ts';
import { legalUnits, portfolios } from './generate/layout.ts';
import { DAILY_PRICE_COLUMNS, MARKET_TICKERS, PRICE_DAYS, PROFILE_COLUMNS, dailyPriceRows, profileRows } from './generate/market-data.ts';
import { MEMBER_COLUMNS, buildMembers, memberRows } from './generate/member.ts';
import { OWNER_COLUMNS, ownerRows, propertyRows } from './generate/owner.ts';
import { PROPERTY_COLUMNS } from './generate/property.ts';
import { MACRO_COLUMNS, TENORS, YIELD_COLUMNS, macroRows, yieldCurveRows, yieldCurves } from './generate/rates.ts';
import { SIGNAL_COLUMNS, signalCount, signalRows } from './generate/signal.ts';

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

export const SEED_TABLES = [
  'companies', 'contacts', 'owners', 'properties', 'firms', 'attorneys', 'members', 'company_profiles',
  'daily_prices', 'signals', 'congressional_trades', 'yield_curve_points', 'macro_indicators', 'briefings',
] as const;
export type SeedTable = (typeof SEED_TABLES)[number];

/**
 * Tables that must load in order (children after parents, briefings after signals). Chains are independent
 * of one another, so PostgreSQL can load several side by side; they are listed largest first (the companies
 * chain is ~4 rows per scale unit, the others ~1-1.5) so two workers finish together.
 */
export const LOAD_CHAINS: readonly (readonly SeedTable[])[] = [
  ['companies', 'contacts'],
  ['members', 'company_profiles', 'daily_prices', 'signals', 'congressional_trades', 'yield_curve_points', 'macro_indicators', 'briefings'],
  ['owners', 'properties'],
  ['firms', 'attorneys'],
];

function count(items: Iterable<unknown>): number {
  let total = 0;
  for (const _ of items) total++;
  return total;
}

/** All tables but briefings, which are written from the loaded signals (`briefingLoad`). */
export function planTables(ctx: SeedContext): TableLoad[] {
  const firms = count([...legalUnits(ctx)].filter((unit) => unit.kind === 'firm'));
  const curveDays = yieldCurves(ctx).length;
  const load = (table: SeedTable, columns: readonly string[], expectedRows: number, rows: () => Iterable<Row>, serialId = false): TableLoad =>
    ({ table, columns, expectedRows, serialId, rows });
  return [
    load('companies', COMPANY_COLUMNS, ctx.scale, () => companyRows(ctx), true),
    load('contacts', CONTACT_COLUMNS, Math.round(ctx.scale * 3.15), () => contactRows(ctx, companyCores(ctx)), true),
    load('owners', OWNER_COLUMNS, count(portfolios(ctx)), () => ownerRows(ctx), true),
    load('properties', PROPERTY_COLUMNS, ctx.scale, () => propertyRows(ctx), true),
    load('firms', FIRM_COLUMNS, firms, () => firmRows(ctx), true),
    load('attorneys', ATTORNEY_COLUMNS, ctx.scale, () => attorneyRows(ctx), true),
    load('members', MEMBER_COLUMNS, buildMembers(ctx).length, () => memberRows(ctx)),
    load('company_profiles', PROFILE_COLUMNS, MARKET_TICKERS.length, () => profileRows(ctx)),
    load('daily_prices', DAILY_PRICE_COLUMNS, MARKET_TICKERS.length * PRICE_DAYS, () => dailyPriceRows(ctx)),
    load('signals', SIGNAL_COLUMNS, signalCount(ctx.scale), () => signalRows(ctx)),
    load('congressional_trades', TRADE_COLUMNS, tradeCount(ctx.scale), () => congressionalTradeRows(ctx)),
    load('yield_curve_points', YIELD_COLUMNS, curveDays * TENORS.length, () => yieldCurveRows(ctx)),
    load('macro_indicators', MACRO_COLUMNS, 3 * 60 + 2 * curveDays, () => macroRows(ctx)),
  ];
}

export function briefingLoad(ctx: SeedContext, topSignals: readonly DayTopSignal[]): TableLoad {
  return {
    table: 'briefings', columns: BRIEFING_COLUMNS, expectedRows: BRIEFING_DAYS, serialId: false,
    rows: () => briefingRows(ctx, topSignals),
  };
}

/** A table's CSV exactly as COPY receives it, chunk by chunk (the determinism test hashes this). */
export function tableCsv(load: TableLoad, rowsPerChunk = CHUNK_ROWS): Iterable<string> {
  return csvChunks(load.rows(), rowsPerChunk);
}
