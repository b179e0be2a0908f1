// GraphQL over Server-Sent Events with graphql-sse's own client, in its default "distinct connections
// mode" (one POST with `Accept: text/event-stream` per operation, on /graphql itself): a query (one
// result), a @defer query (the first payload, then each later payload as a result of its own, as the
// server sent them), a @defer query whose deferred part fails (its errors in the later payload's
// incremental item), and a subscription that gets its first answer, then the change after a stream is
// recorded over HTTP for the movie it shows; leaving the iteration ends that request.
//
// usage: node defer-sse.mjs http://127.0.0.1:PORT/graphql MOVIE_ID OTHER_MOVIE_ID NOT_A_MOVIE_ID MONTH [subscription]
//   with `subscription` last, only the subscription
import { randomUUID } from 'node:crypto';
import { createClient } from 'graphql-sse';

import {
  DEFERRED, DEFERRED_ERROR, TOP, collect, headersFetch, withTimeout,
} from './incremental.mjs';
import { report } from './recording-fetch.mjs';

const [endpoint, movieId, otherId, notAMovieId, month, only] = process.argv.slice(2);

async function recordStream(movie) {
  const response = await fetch(endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      query: 'mutation($input: StreamInput!) { recordStream(input: $input) { counted } }',
      variables: { input: { movieId: movie, streamId: randomUUID(), at: `${month}-03T12:00:00Z` } },
    }),
  });
  const body = await response.json();
  if (!body.data?.recordStream?.counted) throw new Error(`recordStream failed: ${JSON.stringify(body)}`);
}

/** The subscription's first two results, then the iteration left (the client aborts its request). */
async function subscription(client) {
  const streams = [];
  let started;
  let updateMs = null;
  await withTimeout((async () => {
    for await (const result of client.iterate({ query: TOP, variables: { month } })) {
      if (result.errors) throw new Error(`subscription errors: ${JSON.stringify(result.errors)}`);
      const [top] = result.data.topMoviesChanged;
      streams.push(top.streams);
      if (streams.length === 1) {
        started = Date.now();
        await recordStream(top.movie.id);
      } else {
        updateMs = Date.now() - started;
        break;
      }
    }
  })(), () => streams);
  return { streams, updateMs };
}

report(async () => {
  const { fetch, exchanges } = headersFetch();
  const client = createClient({ url: endpoint, fetchFn: fetch, retryAttempts: 0 });
  try {
    if (only === 'subscription') {
      return { exchanges, subscription: await subscription(client) };
    }
    const query = await collect(client, { query: 'query Plain($id: ID!) { movie(id: $id) { id title } }',
      variables: { id: movieId } });
    const deferred = await collect(client, { query: DEFERRED, variables: { id: movieId } });
    const failing = await collect(client, { query: DEFERRED_ERROR, variables: { id: otherId, other: notAMovieId } });
    const subscribed = await subscription(client);
    return { exchanges, query, deferred, failing, subscription: subscribed };
  } finally {
    client.dispose();
  }
});
