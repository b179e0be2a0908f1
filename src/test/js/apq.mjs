// Apollo Client's automatic persisted queries link (createPersistedQueryLink over HttpLink) against the
// server: the first request of a new document sends its hash alone, misses, and the link sends the query
// with the hash; the next request of it sends the hash alone and gets data. Once with POST, once with
// useGETForHashedQueries (hash-only GETs, which a CDN can cache).
//
// usage: node apq.mjs http://127.0.0.1:PORT/graphql MOVIE_ID
import { ApolloClient, HttpLink, InMemoryCache, gql } from '@apollo/client-3/core/index.js';
import { createPersistedQueryLink } from '@apollo/client-3/link/persisted-queries/index.js';
import { createHash, randomUUID } from 'node:crypto';

import { recordingFetch, report } from './recording-fetch.mjs';

const [endpoint, movieId] = process.argv.slice(2);
const sha256 = (text) => createHash('sha256').update(text).digest('hex');

async function twice(useGETForHashedQueries) {
  const { fetch, exchanges } = recordingFetch();
  const link = createPersistedQueryLink({ sha256, useGETForHashedQueries })
    .concat(new HttpLink({ uri: endpoint, fetch }));
  const client = new ApolloClient({ link, cache: new InMemoryCache() });
  // A new operation name each run, so the server has never seen the document.
  const name = `Apq${useGETForHashedQueries ? 'Get' : 'Post'}${randomUUID().replaceAll('-', '')}`;
  const query = gql(`query ${name}($id: ID!) { movie(id: $id) { id title } }`);
  const titles = [];
  for (let i = 0; i < 2; i++) {
    // errorPolicy all: an error comes back with the exchanges instead of ending the script without them
    const result = await client.query({ query, variables: { id: movieId }, fetchPolicy: 'network-only',
      errorPolicy: 'all' });
    titles.push(result.data?.movie?.title ?? result.errors?.map((error) => error.message).join('; ') ?? null);
  }
  return { titles, exchanges };
}

report(async () => ({ post: await twice(false), get: await twice(true) }));
