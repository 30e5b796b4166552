import { describe, expect, it } from 'vitest';
import { estimatedTokens, fitToBudget } from '../../../gateway/mcp/answer-budget.ts';
import { decodeCursor, encodeCursor } from '../../../gateway/mcp/cursor.ts';
import { BadRequestError } from '../../../subgraphs/platform/errors.ts';

const item = (index: number) => ({ id: `item-${index}`, text: 'x'.repeat(200) });
const tokensOf = (value: unknown) => estimatedTokens(JSON.stringify(value));

describe('fitToBudget', () => {
  it('leaves an answer within its budget as it is', () => {
    const answer = { data: [item(1), item(2)], total: 2 };
    expect(fitToBudget(answer, 1_000)).toEqual({ answer });
  });

  it('cuts the page list at whole items, as many as fit, and says what it cut', () => {
    const answer = { data: Array.from({ length: 100 }, (_, index) => item(index)), total: 100, page: 1, pages: 1 };
    const fitted = fitToBudget(answer, 1_000);
    const kept = fitted.keptItems!;
    expect(fitted.answer.data).toEqual(answer.data.slice(0, kept));
    expect(fitted.truncated).toEqual({
      reason: 'The answer was over its budget of 1000 tokens.',
      budget_tokens: 1_000,
      cut: ['data'],
      items_available: 100,
      items_returned: kept,
    });
    const withNote = { ...fitted.answer, truncated: fitted.truncated, next_cursor: 'x'.repeat(200) };
    expect(tokensOf(withNote)).toBeLessThanOrEqual(1_000);
    // One more item would not have fitted.
    expect(tokensOf({ ...withNote, data: answer.data.slice(0, kept + 1) })).toBeGreaterThan(1_000);
    expect(answer.data).toHaveLength(100);
  });

  it('shortens what is largest inside an item too large on its own, and a long text', () => {
    const huge = { data: [{ id: 'one', purchases: Array.from({ length: 200 }, (_, index) => item(index)) }] };
    const fitted = fitToBudget(huge, 1_000);
    expect(fitted.truncated!.cut).toEqual(['data', 'data.0.purchases']);
    expect((fitted.answer.data as { purchases: unknown[] }[])[0]!.purchases.length).toBeLessThan(200);
    expect(tokensOf({ ...fitted.answer, truncated: fitted.truncated })).toBeLessThanOrEqual(1_000);

    const page = { html: `<p>${'y'.repeat(50_000)}</p>` };
    const cut = fitToBudget(page, 2_000, undefined);
    expect(cut.truncated!.cut).toEqual(['html']);
    expect(cut.answer.html).toMatch(/^<p>y+…$/);
    expect(tokensOf({ ...cut.answer, truncated: cut.truncated })).toBeLessThanOrEqual(2_000);
  });
});

describe('tool cursors', () => {
  it('carry the arguments and the items already given, for the tool that gave them only', () => {
    const cursor = encodeCursor({ tool: 'signals', arguments: { ticker: 'NVDA', page: 2 }, skip: 7 });
    expect(decodeCursor(cursor, 'signals')).toEqual({
      tool: 'signals',
      arguments: { ticker: 'NVDA', page: 2 },
      skip: 7,
    });
    for (const [text, tool] of [
      [cursor, 'records'],
      ['not base64 json', 'signals'],
      [Buffer.from('{"t":"signals","a":[],"s":1}').toString('base64url'), 'signals'],
      [Buffer.from('{"t":"signals","a":{},"s":-1}').toString('base64url'), 'signals'],
    ] as const) {
      expect(() => decodeCursor(text, tool)).toThrow(new BadRequestError({ cursor: 'is not a cursor this tool gave' }));
    }
  });
});
