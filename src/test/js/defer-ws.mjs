// @defer over the WebSocket with graphql-ws's own client (graphql-transport-ws): a query with @defer
// subscribed as a query is, each `next` message one result of client.iterate (the first payload with
// hasNext true, then the later payloads), until `complete` ends the iteration; then the same with a
// deferred part that fails, its errors in that part's incremental item.
//
// usage: node defer-ws.mjs http://127.0.0.1:PORT/graphql MOVIE_ID OTHER_MOVIE_ID NOT_A_MOVIE_ID
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';

import { DEFERRED, DEFERRED_ERROR, collect } from './incremental.mjs';
import { report } from './recording-fetch.mjs';

const [endpoint, movieId, otherId, notAMovieId] = process.argv.slice(2);

report(async () => {
  const client = createClient({ url: endpoint.replace(/^http/, 'ws'), webSocketImpl: WebSocket, retryAttempts: 0 });
  try {
    return {
      deferred: await collect(client, { query: DEFERRED, variables: { id: movieId } }),
      failing: await collect(client, { query: DEFERRED_ERROR, variables: { id: otherId, other: notAMovieId } }),
    };
  } finally {
    await client.dispose();
  }
});
