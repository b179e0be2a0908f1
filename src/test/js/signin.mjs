// A signed-in app's clients: Apollo Client with an auth link (setContext adds `Authorization: Bearer
// <token>` to every request, as an app does with the token its sign-in library holds) and an error link
// (what an app watches to send its user to sign in again), and graphql-ws with the token in
// connectionParams (the connection_init payload the server verifies). The token comes from the
// environment variable MOVIEGRAPH_TOKEN; without it the clients are anonymous.
//
// usage: MOVIEGRAPH_TOKEN=... node signin.mjs http://127.0.0.1:PORT/graphql SCENARIO [ARG]
//   mutate PERSON_ID     the token's client and an anonymous client each run the same mutation
//   query MOVIE_ID       the token's client reads a movie, then tries a mutation
//   subscribe MONTH      graphql-ws with the token subscribes to the month's top list, first answer
//   refused MONTH        the same with a token the server refuses: how the socket ends
import { ApolloClient, HttpLink, InMemoryCache, gql } from '@apollo/client-3/core/index.js';
import { setContext } from '@apollo/client-3/link/context/index.js';
import { onError } from '@apollo/client-3/link/error/index.js';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';

import { report } from './recording-fetch.mjs';

const [endpoint, scenario, argument] = process.argv.slice(2);
const wsUrl = endpoint.replace(/^http/, 'ws');
const token = process.env.MOVIEGRAPH_TOKEN || null;
const TIMEOUT_MS = 10_000;

const PUT_PERSON = gql`mutation SignedInPut($id: ID!) { putPerson(input: {id: $id, name: "Signed In From Apollo"}) { id name } }`;
const MOVIE = gql`query SignedInMovie($id: ID!) { movie(id: $id) { id title } }`;
const TOP = 'subscription SignedInTop($month: YearMonth!) { topMoviesChanged(month: $month, limit: 1) { streams movie { id title } } }';

/** Apollo Client as an app builds it: error link, then auth link, then HTTP; `seen` collects what the error link saw. */
function apollo(bearer) {
  const seen = [];
  const authLink = setContext((_, { headers }) => ({
    headers: { ...headers, ...(bearer ? { authorization: `Bearer ${bearer}` } : {}) },
  }));
  const errorLink = onError(({ networkError, graphQLErrors }) => {
    seen.push({
      statusCode: networkError?.statusCode ?? null,
      // a refused operation is a non-2xx answer: Apollo makes it a network error (ServerError) whose
      // result is the server's JSON body, errors with extensions.code included
      codes: (networkError?.result?.errors ?? graphQLErrors ?? []).map((error) => error.extensions?.code ?? null),
      wwwAuthenticate: networkError?.response?.headers?.get('www-authenticate') ?? null,
    });
  });
  const client = new ApolloClient({
    link: errorLink.concat(authLink).concat(new HttpLink({ uri: endpoint })),
    cache: new InMemoryCache(),
  });
  return { client, seen };
}

/** What an app's `await client.mutate(...)`/`query(...)` gives: its data, or the ApolloError it threw. */
async function outcome(run, seen) {
  try {
    const result = await run();
    return { data: result.data ?? null, errors: result.errors ?? null, seen };
  } catch (error) {
    return {
      data: null,
      error: {
        name: error.name,
        message: error.message,
        statusCode: error.networkError?.statusCode ?? null,
        codes: (error.networkError?.result?.errors ?? []).map((e) => e.extensions?.code ?? null),
        messages: (error.networkError?.result?.errors ?? []).map((e) => e.message),
        graphQLErrors: (error.graphQLErrors ?? []).map((e) => e.extensions?.code ?? null),
      },
      seen,
    };
  }
}

async function mutate(personId) {
  const signedIn = apollo(token);
  const anonymous = apollo(null);
  const mutation = { mutation: PUT_PERSON, variables: { id: personId } };
  return {
    signedIn: await outcome(() => signedIn.client.mutate(mutation), signedIn.seen),
    anonymous: await outcome(() => anonymous.client.mutate(mutation), anonymous.seen),
  };
}

async function query(movieId) {
  const { client, seen } = apollo(token);
  return {
    query: await outcome(() => client.query({ query: MOVIE, variables: { id: movieId }, fetchPolicy: 'network-only' }),
      seen),
    mutate: await outcome(() => client.mutate({ mutation: PUT_PERSON, variables: { id: 'nm9700003' } }), []),
  };
}

/** graphql-ws with the token in connectionParams: its events and the subscription's first answer or end. */
function subscribe(month) {
  const events = [];
  const client = createClient({
    url: wsUrl,
    webSocketImpl: WebSocket,
    retryAttempts: 0,
    connectionParams: token ? { Authorization: `Bearer ${token}` } : {},
    on: {
      connected: () => events.push({ event: 'connected' }),
      closed: (event) => events.push({ event: 'closed', code: event?.code ?? null, reason: event?.reason ?? null }),
    },
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out with ${JSON.stringify(events)}`)), TIMEOUT_MS);
    const finish = (result) => {
      clearTimeout(timer);
      client.dispose();
      // after dispose, so that the closed event is in
      setTimeout(() => resolve({ ...result, events }), 100);
    };
    client.subscribe({ query: TOP, variables: { month } }, {
      next: (result) => finish({ next: result }),
      // graphql-ws hands the sink the CloseEvent of a socket the server closed
      error: (error) => finish({ error: { code: error?.code ?? null, reason: error?.reason ?? null,
        message: error instanceof Error ? error.message : null } }),
      complete: () => finish({ complete: true }),
    });
  });
}

const scenarios = { mutate, query, subscribe, refused: subscribe };
if (!scenarios[scenario]) {
  console.error(`unknown scenario ${scenario}: one of ${Object.keys(scenarios).join(', ')}`);
  process.exit(2);
}
report(() => scenarios[scenario](argument));
