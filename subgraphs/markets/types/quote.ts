import type { Quote as QuoteSource } from '../ticker-loaders.ts';
import { builder } from '../builder.ts';

export const Quote = builder.objectRef<QuoteSource>('Quote').implement({
  description:
    'The latest stored daily close and its change from the close before it (imported prices, never estimated).',
  fields: (t) => ({
    ticker: t.exposeString('ticker', { description: 'The ticker in its stored form, upper case (`BRK-B`).' }),
    price: t.exposeFloat('price', { description: 'The latest daily close, in USD.' }),
    change: t.exposeFloat('change', {
      nullable: true,
      description: 'US dollars from the previous close to `price`; null with one price.',
    }),
    changePct: t.exposeFloat('changePct', {
      nullable: true,
      description: 'Percent change from the previous close; null with one price.',
    }),
    date: t.field({ type: 'Date', description: 'The date of `price`.', resolve: (quote) => quote.date }),
    asOf: t.field({
      type: 'Date',
      description: 'The trading day the quote is as of: the date of `price` (REST `as_of`).',
      resolve: (quote) => quote.date,
    }),
    previousClose: t.exposeFloat('previousClose', {
      nullable: true,
      description: 'The daily close before `price`, in USD; null with one price.',
    }),
    previousDate: t.field({
      type: 'Date',
      nullable: true,
      description: 'The date of `previousClose`; null with one price.',
      resolve: (quote) => quote.previousDate,
    }),
  }),
});
