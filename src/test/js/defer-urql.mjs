// @defer with urql: @urql/core's Client with its fetchExchange alone (no cache), which asks for
// multipart/mixed and text/event-stream itself and merges each incremental part into the result. Each
// result the query's source emits is what a component would render: the title first, the cast once the
// deferred part is merged, hasNext false at the end. Then a deferred part that fails: the first part's
// data stays and the error shows as urql's users read it, result.error, a CombinedError; the same when the
// failing field is non-null (the deferred fragment's data null), with the field's own error.
//
// usage: node defer-urql.mjs http://127.0.0.1:PORT/graphql MOVIE_ID OTHER_MOVIE_ID NOT_A_MOVIE_ID
import { Client, fetchExchange } from '@urql/core';

import {
  DEFERRED, DEFERRED_ERROR, DEFERRED_NON_NULL_ERROR, brief, castNames, headersFetch, withTimeout,
} from './incremental.mjs';
import { report } from './recording-fetch.mjs';

const [endpoint, movieId, otherId, notAMovieId] = process.argv.slice(2);

function shown(result) {
  return {
    title: result.data?.movie?.title ?? null,
    cast: castNames(result.data?.movie),
    hasOther: result.data != null && 'other' in result.data,
    other: result.data?.other ?? null,
    hasNext: result.hasNext,
    error: result.error ? {
      name: result.error.name,
      message: result.error.message,
      graphQLErrors: result.error.graphQLErrors.map(brief),
      networkError: result.error.networkError ? String(result.error.networkError) : null,
    } : null,
  };
}

/** Subscribes to the query's source until a result says hasNext false. */
async function run(query, variables) {
  const { fetch, exchanges } = headersFetch();
  const client = new Client({ url: endpoint, exchanges: [fetchExchange], fetch, requestPolicy: 'network-only' });
  const results = [];
  let subscription;
  try {
    await withTimeout(new Promise((resolve) => {
      subscription = client.query(query, variables).subscribe((result) => {
        results.push(shown(result));
        if (!result.hasNext) resolve();
      });
    }), () => results);
  } finally {
    subscription?.unsubscribe();
  }
  return { exchanges, results };
}

report(async () => ({
  deferred: await run(DEFERRED, { id: movieId }),
  failing: await run(DEFERRED_ERROR, { id: otherId, other: notAMovieId }),
  failingNonNull: await run(DEFERRED_NON_NULL_ERROR, { id: movieId }),
}));
