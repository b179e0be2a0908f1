// @defer with Apollo Client 3 (its HttpLink reads multipart/mixed;deferSpec=20220824 itself) and Apollo
// Client 4 (the same, with the Defer20220824Handler as its incrementalHandler): client.watchQuery, as
// useQuery does, with what each emission would render: the movie's title first, its cast once the
// deferred part arrives. Then a deferred part that fails, with errorPolicy 'all': the first part's data
// stays and the error shows as each version shows errors (Apollo 3: result.errors; Apollo 4: result.error,
// a CombinedGraphQLErrors). A link between the client and HttpLink records the chunks HttpLink produced
// and tells when the request's stream ended.
//
// usage: node defer-apollo.mjs http://127.0.0.1:PORT/graphql MOVIE_ID OTHER_MOVIE_ID NOT_A_MOVIE_ID
import * as apollo3 from '@apollo/client-3/core/index.js';
import * as apollo4 from '@apollo/client';
import { Defer20220824Handler } from '@apollo/client/incremental';
import { tap } from 'rxjs';

import {
  DEFERRED, DEFERRED_ERROR, brief, castNames, headersFetch, withTimeout,
} from './incremental.mjs';
import { report } from './recording-fetch.mjs';

const [endpoint, movieId, otherId, notAMovieId] = process.argv.slice(2);
const SETTLE_MS = 100;
const SETTLE_LIMIT_MS = 10_000;

/** What a chunk from HttpLink holds: its keys, and the paths and labels of its incremental items. */
function chunk(result) {
  return {
    keys: Object.keys(result).sort(),
    hasNext: result.hasNext ?? null,
    incremental: (result.incremental ?? []).map((item) => ({ path: item.path ?? null, label: item.label ?? null,
      errors: (item.errors ?? []).map(brief) })),
  };
}

/** What a screen rendering this emission shows. */
function emission(result, version) {
  const errors = version === 3 ? (result.errors ?? []) : (result.error?.errors ?? []);
  return {
    loading: result.loading,
    networkStatus: result.networkStatus,
    dataState: result.dataState ?? null,
    title: result.data?.movie?.title ?? null,
    cast: castNames(result.data?.movie),
    hasOther: result.data != null && 'other' in result.data,
    other: result.data?.other ?? null,
    errors: errors.map(brief),
    error: result.error ? { name: result.error.name, message: result.error.message } : null,
  };
}

/** Runs one watchQuery to the end of its HTTP stream; the emissions, the chunks and the exchanges. */
async function watch(version, query, variables) {
  const { fetch, exchanges } = headersFetch();
  const chunks = [];
  let ended;
  const streamEnded = new Promise((resolve, reject) => { ended = { resolve, reject }; });
  const emissions = [];
  let client;
  if (version === 3) {
    const { ApolloClient, ApolloLink, HttpLink, InMemoryCache, Observable } = apollo3;
    const recorder = new ApolloLink((operation, forward) => new Observable((observer) => {
      const subscription = forward(operation).subscribe({
        next: (result) => { chunks.push(chunk(result)); observer.next(result); },
        error: (error) => { ended.reject(error); observer.error(error); },
        complete: () => { ended.resolve(); observer.complete(); },
      });
      return () => subscription.unsubscribe();
    }));
    client = new ApolloClient({ link: recorder.concat(new HttpLink({ uri: endpoint, fetch })), cache: new InMemoryCache() });
  } else {
    const { ApolloClient, ApolloLink, HttpLink, InMemoryCache } = apollo4;
    const recorder = new ApolloLink((operation, forward) => forward(operation).pipe(tap({
      next: (result) => chunks.push(chunk(result)),
      error: (error) => ended.reject(error),
      complete: () => ended.resolve(),
    })));
    client = new ApolloClient({
      link: recorder.concat(new HttpLink({ uri: endpoint, fetch })),
      cache: new InMemoryCache(),
      incrementalHandler: new Defer20220824Handler(),
    });
  }
  const observable = client.watchQuery({
    query: version === 3 ? apollo3.gql(query) : apollo4.gql(query),
    variables,
    fetchPolicy: 'network-only',
    errorPolicy: 'all',
  });
  const subscription = observable.subscribe({
    next: (result) => emissions.push(emission(result, version)),
    error: (error) => emissions.push({ thrown: { name: error.name, message: error.message } }),
  });
  try {
    await withTimeout(streamEnded, () => ({ chunks, emissions }));
    // the cache broadcasts the last chunk's result after the link's complete: wait for an emission that is
    // no longer loading (Apollo 4 may stay 'streaming' when a part nulled its parent), then a moment more
    const settleBy = Date.now() + SETTLE_LIMIT_MS;
    while (Date.now() < settleBy && (emissions.length === 0 || emissions[emissions.length - 1].loading)) {
      await new Promise((resolve) => { setTimeout(resolve, 20); });
    }
    await new Promise((resolve) => { setTimeout(resolve, SETTLE_MS); });
  } finally {
    subscription.unsubscribe();
    client.stop();
  }
  return { exchanges, chunks, emissions };
}

async function run(version) {
  return {
    deferred: await watch(version, DEFERRED, { id: movieId }),
    failing: await watch(version, DEFERRED_ERROR, { id: otherId, other: notAMovieId }),
  };
}

report(async () => ({ apollo3: await run(3), apollo4: await run(4) }));
