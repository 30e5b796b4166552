/**
 * The README's example, runnable: `DATA_GRAPH_API_KEY=sk_test_… npx tsx client/example.ts [ticker]`
 * (DATA_GRAPH_URL defaults to http://localhost:4000, where `npm start` listens).
 */
import { createDataGraphClient } from './index.ts';

const client = createDataGraphClient({
  baseUrl: process.env.DATA_GRAPH_URL ?? 'http://localhost:4000',
  apiKey: process.env.DATA_GRAPH_API_KEY,
});

const { data, error, response } = await client.GET('/api/signals', {
  params: { query: { ticker: process.argv[2] ?? 'AAPL', signal_type: 'sec_filing', limit: 5 } },
});
if (error) {
  console.error(`${response.status} ${error.error}: ${error.message}`);
  process.exit(1);
}
console.log(`${data.total} signals`);
for (const signal of data.signals) console.log(`${signal.created_at} ${signal.ticker} ${signal.ai_summary}`);
