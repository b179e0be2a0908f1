// GraphiQL's subscriptions: loads the real GraphiQL bootstrap (src/main/resources/graphiql/app.js) with
// stand-ins for React and GraphiQL, takes the wsClient it hands GraphiQL's fetcher, and subscribes with it
// over a real WebSocket (the ws package standing in for the browser's), as GraphiQL does when a
// subscription tab runs: the first answer, then the update after a stream is recorded over HTTP.
//
// usage: node graphiql-ws.mjs http://127.0.0.1:PORT/graphql MONTH APP_JS
import { readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import vm from 'node:vm';
import WebSocket from 'ws';

import { report } from './recording-fetch.mjs';

const [endpoint, month, appJs] = process.argv.slice(2);
const page = new URL('/graphiql', endpoint).href;

let fetcherOptions = null;
const GraphiQL = function GraphiQL() {};
GraphiQL.createFetcher = (options) => { fetcherOptions = options; return () => Promise.resolve({}); };
const window = {
  localStorage: { getItem: () => null, setItem: () => {}, removeItem: () => {}, key: () => null, length: 0 },
  location: { href: page },
  React: { createElement: (type, props) => ({ type, props }), Fragment: 'Fragment', useState: () => [null, () => {}],
    useEffect: () => {} },
  ReactDOM: { createRoot: () => ({ render: () => {} }) },
  GraphiQL,
};
vm.runInContext(readFileSync(appJs, 'utf8'), vm.createContext({ window, document: { getElementById: () => ({}) },
  URL, JSON, Object, Array, Set, Promise, Symbol, WebSocket }));

async function recordStream(movieId) {
  const response = await fetch(endpoint, { method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: 'mutation($input: StreamInput!) { recordStream(input: $input) { counted } }',
      variables: { input: { movieId, streamId: randomUUID(), at: `${month}-04T10:00:00Z` } } }) });
  if (!(await response.json()).data?.recordStream?.counted) throw new Error('recordStream failed');
}

report(() => new Promise((resolve, reject) => {
  const messages = [];
  const timer = setTimeout(() => reject(new Error(`timed out with ${JSON.stringify(messages)}`)), 30_000);
  const stop = fetcherOptions.wsClient.subscribe({
    query: `subscription { topMoviesChanged(month: "${month}", limit: 1) { streams movie { id } } }`,
    operationName: null,
  }, {
    next: (message) => {
      messages.push(message);
      if (messages.length === 1) {
        recordStream(message.data.topMoviesChanged[0].movie.id).catch(reject);
      } else {
        clearTimeout(timer);
        stop();
        resolve({ url: fetcherOptions.url, streams: messages.map((m) => m.data.topMoviesChanged[0].streams),
          cost: messages[1].extensions?.cost ?? null });
        setTimeout(() => process.exit(0), 100);
      }
    },
    error: (error) => { clearTimeout(timer); reject(error); },
    complete: () => {},
  });
}));
