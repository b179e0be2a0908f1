// GraphQL over SSE signed in: graphql-sse's client with the `Authorization: Bearer <token>` header its
// `headers` option adds to every request, as an app passes its sign-in library's token. A @defer query of the
// viewer's own watchlist (the deferred part under @auth too), then the viewer's watchlistChanged
// subscription: its first answer, then the change after the same viewer adds a movie over HTTP. Last, a
// client without the header asks for the same subscription: what it gets. The token comes from the
// environment variable MOVIEGRAPH_TOKEN.
//
// usage: MOVIEGRAPH_TOKEN=... node sse-signin.mjs http://127.0.0.1:PORT/graphql MOVIE_ID
import { createClient } from 'graphql-sse';

import { headersFetch, withTimeout } from './incremental.mjs';
import { report } from './recording-fetch.mjs';

const [endpoint, movieId] = process.argv.slice(2);
const token = process.env.MOVIEGRAPH_TOKEN;

const LIST = 'watchlist(first: 5) { totalCount edges { movieId } }';
const DEFERRED = `query MyList { viewer { id ... @defer(label: "list") { ${LIST} } } }`;
const CHANGES = `subscription MyListChanges { watchlistChanged { id ${LIST} } }`;

async function addToWatchlist() {
  const response = await fetch(endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ query: 'mutation($id: ID!) { addToWatchlist(movieId: $id) { movieId } }',
      variables: { id: movieId } }),
  });
  const body = await response.json();
  if (body.data?.addToWatchlist?.movieId !== movieId) throw new Error(`addToWatchlist failed: ${JSON.stringify(body)}`);
}

/** The watchlist as a subscription result shows it. */
function list(result) {
  const watchlist = result.data?.watchlistChanged?.watchlist;
  return watchlist ? { totalCount: watchlist.totalCount, movieIds: watchlist.edges.map((edge) => edge.movieId) } : null;
}

async function changes(client) {
  const results = [];
  await withTimeout((async () => {
    for await (const result of client.iterate({ query: CHANGES })) {
      results.push({ list: list(result), errors: result.errors ?? null });
      if (result.errors || results.length === 2) break;
      await addToWatchlist();
    }
  })(), () => results);
  return results;
}

/** An anonymous client's try: the results it got, or the error its iteration threw. */
async function anonymous() {
  const { fetch, exchanges } = headersFetch();
  const client = createClient({ url: endpoint, fetchFn: fetch, retryAttempts: 0 });
  const results = [];
  try {
    await withTimeout((async () => {
      for await (const result of client.iterate({ query: CHANGES })) {
        results.push({ data: result.data ?? null, errors: result.errors ?? null });
      }
    })(), () => results);
    return { exchanges, results, thrown: null };
  } catch (error) {
    return { exchanges, results, thrown: { name: error?.name ?? null, message: String(error?.message ?? error) } };
  } finally {
    client.dispose();
  }
}

report(async () => {
  if (!token) throw new Error('MOVIEGRAPH_TOKEN is not set');
  const { fetch, exchanges } = headersFetch();
  const client = createClient({ url: endpoint, fetchFn: fetch, retryAttempts: 0,
    headers: () => ({ authorization: `Bearer ${token}` }) });
  try {
    const deferred = [];
    await withTimeout((async () => {
      for await (const result of client.iterate({ query: DEFERRED })) deferred.push(result);
    })(), () => deferred);
    return { exchanges, deferred, subscription: await changes(client), anonymous: await anonymous() };
  } finally {
    client.dispose();
  }
});
