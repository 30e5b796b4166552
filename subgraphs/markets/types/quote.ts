import type { Quote as QuoteSource } from '../ticker-loaders.ts';
import { builder } from '../builder.ts';

export const Quote = builder.objectRef<QuoteSource>('Quote').implement({
  description: 'The latest stored daily close and its change from the close before it.',
  fields: (t) => ({
    ticker: t.exposeString('ticker'),
    price: t.exposeFloat('price', { description: 'The latest daily close.' }),
    changePct: t.exposeFloat('changePct', {
      nullable: true,
      description: 'Percent change from the previous close; null with one price.',
    }),
    date: t.field({ type: 'Date', description: 'The date of `price`.', resolve: (quote) => quote.date }),
    previousClose: t.exposeFloat('previousClose', { nullable: true }),
    previousDate: t.field({ type: 'Date', nullable: true, resolve: (quote) => quote.previousDate }),
  }),
});
