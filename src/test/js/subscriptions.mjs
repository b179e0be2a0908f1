// Subscriptions with the clients web teams use: graphql-ws's own client, and Apollo Client's GraphQLWsLink
// over it. Each subscribes, gets the first answer, records a stream over HTTP for the movie it shows, and
// waits for the update the table's change stream brings.
//
// usage: node subscriptions.mjs http://127.0.0.1:PORT/graphql MONTH
import { ApolloClient, InMemoryCache, gql } from '@apollo/client-3/core/index.js';
import { GraphQLWsLink } from '@apollo/client-3/link/subscriptions/index.js';
import { createClient } from 'graphql-ws';
import { randomUUID } from 'node:crypto';
import WebSocket from 'ws';

import { report } from './recording-fetch.mjs';

const [endpoint, month] = process.argv.slice(2);
const wsUrl = endpoint.replace(/^http/, 'ws');
const TIMEOUT_MS = 10_000;

async function recordStream(movieId) {
  const response = await fetch(endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      query: 'mutation($input: StreamInput!) { recordStream(input: $input) { counted } }',
      variables: { input: { movieId, streamId: randomUUID(), at: `${month}-03T12:00:00Z` } },
    }),
  });
  const body = await response.json();
  if (!body.data?.recordStream?.counted) throw new Error(`recordStream failed: ${JSON.stringify(body)}`);
}

/** The first two results of a subscription: the answer at subscribe, then the one after our write. */
function firstTwo(subscribe, leaderOf) {
  return new Promise((resolve, reject) => {
    const results = [];
    const timer = setTimeout(() => reject(new Error(`timed out with ${JSON.stringify(results)}`)), TIMEOUT_MS);
    let started;
    const stop = subscribe({
      next: (result) => {
        results.push(result);
        if (results.length === 1) {
          started = Date.now();
          recordStream(leaderOf(result)).catch(reject);
        } else if (results.length === 2) {
          clearTimeout(timer);
          stop();
          resolve({ results, updateMs: Date.now() - started });
        }
      },
      error: (error) => { clearTimeout(timer); reject(error instanceof Error ? error : new Error(JSON.stringify(error))); },
      complete: () => {},
    });
  });
}

const TOP = `subscription Top($month: YearMonth!) { topMoviesChanged(month: $month, limit: 1) { streams movie { id title } } }`;

async function graphqlWs() {
  const client = createClient({ url: wsUrl, webSocketImpl: WebSocket, retryAttempts: 0 });
  try {
    const { results, updateMs } = await firstTwo(
      (sink) => client.subscribe({ query: TOP, variables: { month } }, sink),
      (result) => result.data.topMoviesChanged[0].movie.id);
    return {
      streams: results.map((result) => result.data.topMoviesChanged[0].streams),
      costs: results.map((result) => result.extensions?.cost?.requests ?? null),
      updateMs,
    };
  } finally {
    await client.dispose();
  }
}

async function apolloWsLink() {
  const wsClient = createClient({ url: wsUrl, webSocketImpl: WebSocket, retryAttempts: 0 });
  const apollo = new ApolloClient({ link: new GraphQLWsLink(wsClient), cache: new InMemoryCache() });
  try {
    const { results, updateMs } = await firstTwo((sink) => {
      const subscription = apollo.subscribe({ query: gql(TOP), variables: { month } }).subscribe(sink);
      return () => subscription.unsubscribe();
    }, (result) => result.data.topMoviesChanged[0].movie.id);
    return { streams: results.map((result) => result.data.topMoviesChanged[0].streams), updateMs };
  } finally {
    apollo.stop();
    await wsClient.dispose();
  }
}

report(async () => ({ graphqlWs: await graphqlWs(), apollo: await apolloWsLink() }));
