// moviegraph as an Apollo Federation 2 subgraph behind a real router: the SDL it publishes
// ({ _service { sdl } }) composes with a second subgraph (reviews-subgraph.mjs) under @apollo/composition,
// and Apollo Gateway (inside Apollo Server, configured as users configure it: a RemoteGraphQLDataSource per
// subgraph forwarding the client's authorization and traceparent headers) answers operations that cross
// the two: moviegraph first then reviews (a); reviews first then moviegraph's _entities for several movies
// in one fetch (b); @requires, where reviews needs moviegraph's title (c); a signed-in field with and
// without the client's token (d, --viewer); and with --apq, moviegraph asked through automatic persisted
// queries, the first operation again (hash only the second time). Every request the gateway sends a
// subgraph is recorded (query, variables, APQ hash, representations, headers, status, Cache-Control), with
// the gateway's own answer and Cache-Control, so the Java test checks what moviegraph was sent.
//
// usage: node federation.mjs http://127.0.0.1:PORT/graphql MOVIE_ID[,MOVIE_ID...] [options]
//   --reviews=N          reviews in the reviews subgraph, spread over the movie ids (default 2 per movie)
//   --first=N            how many latest reviews b and c ask for (default: one per movie)
//   --traceparent=TP     the traceparent the client sends with every operation (default: a new one)
//   --viewer             also run d: { viewer { id } } with MOVIEGRAPH_TOKEN (from the environment) and without
//   --apq                moviegraph's data source sends APQ (apq: true); a runs a second time (aAgain)
//   --only=a,b,...       run only these of a, b, c, d (to count one operation's DynamoDB requests)
//   --hive               also run a, b and c through Hive Gateway (its runtime, on the same supergraph): e
//   --bookmarks=ID,ID    compose a third subgraph (bookmarks-subgraph.mjs) that adds Node.bookmarked through
//                        @interfaceObject, with these node ids bookmarked, and run f: { bookmarks { ... } } (the
//                        router asks moviegraph's _entities with Node representations) and g: a movie's bookmarked
// (e) Hive Gateway's runtime is configured as its users do: propagateHeaders forwards the same headers,
// useCustomFetch records what it sends. Prints one JSON line; a composition that fails prints it too (composition.errors) and exits 1.
import { composeServices } from '@apollo/composition';
import { ApolloGateway, RemoteGraphQLDataSource } from '@apollo/gateway';
import { ApolloServer } from '@apollo/server';
import { startStandaloneServer } from '@apollo/server/standalone';
import { parse } from 'graphql';
import { randomBytes } from 'node:crypto';

import { report } from './recording-fetch.mjs';
import { startBookmarks } from './bookmarks-subgraph.mjs';
import { startReviews } from './reviews-subgraph.mjs';

/** Headers a gateway deployment forwards from the client to every subgraph. */
const FORWARDED = ['authorization', 'traceparent', 'tracestate'];

const [endpoint, idList, ...flags] = process.argv.slice(2);
if (!endpoint || !idList) {
  console.error('usage: node federation.mjs MOVIEGRAPH_URL MOVIE_ID[,MOVIE_ID...] [--reviews=N] [--first=N]'
    + ' [--traceparent=TP] [--viewer] [--apq] [--only=a,b,c,d] [--hive]');
  process.exit(2);
}
const movieIds = idList.split(',');
const option = (name) => flags.find((flag) => flag === `--${name}` || flag.startsWith(`--${name}=`))
  ?.split('=').slice(1).join('=');
const has = (name) => option(name) !== undefined;
const reviewCount = Number(option('reviews') ?? 2 * movieIds.length);
const first = Number(option('first') ?? movieIds.length);
const traceparent = option('traceparent') || `00-${randomBytes(16).toString('hex')}-${randomBytes(8).toString('hex')}-01`;
const apq = has('apq');
const token = process.env.MOVIEGRAPH_TOKEN || null;
const only = option('only')?.split(',') ?? ['a', 'b', 'c', ...(has('viewer') ? ['d'] : [])];
/** Each run's operations have names of their own, so moviegraph has never seen their documents (APQ). */
const run = randomBytes(4).toString('hex');

/** What every subgraph was sent, in order, across the run. */
const sent = [];

async function post(url, body, headers = {}) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  let json = null;
  try {
    json = JSON.parse(text);
  } catch {
    // not JSON: the text is reported
  }
  return { status: response.status, cacheControl: response.headers.get('cache-control'), json, text };
}

async function sdlOf(name, url) {
  const answer = await post(url, { query: '{ _service { sdl } }' });
  const sdl = answer.json?.data?._service?.sdl;
  if (typeof sdl !== 'string') {
    throw new Error(`${name} (${url}) answered { _service { sdl } } with ${answer.status}: ${answer.text}`);
  }
  return sdl;
}

/** A fetch for one subgraph's data source that records each request and its answer in `sent`. */
function recordingFetcher(subgraph) {
  return async (url, init) => {
    const body = JSON.parse(init.body);
    const headers = Object.fromEntries(Object.entries(init.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
    const response = await fetch(url, init);
    const answer = await response.clone().json().catch(() => null);
    sent.push({
      subgraph,
      query: body.query ?? null,
      operationName: body.operationName ?? null,
      variables: body.variables ?? null,
      sha256Hash: body.extensions?.persistedQuery?.sha256Hash ?? null,
      representations: body.variables?.representations ?? null,
      headers: Object.fromEntries(FORWARDED.filter((name) => name in headers).map((name) => [name, headers[name]])),
      status: response.status,
      cacheControl: response.headers.get('cache-control'),
      data: answer?.data ?? null,
      errors: answer?.errors ?? null,
    });
    return response;
  };
}

/** The data source users write: the client's headers passed on, APQ if asked. */
class ForwardingDataSource extends RemoteGraphQLDataSource {
  willSendRequest({ request, context }) {
    for (const name of FORWARDED) {
      const value = context?.incomingHeaders?.[name];
      if (value) {
        request.http.headers.set(name, value);
      }
    }
  }
}

async function startGateway(supergraphSdl) {
  const gateway = new ApolloGateway({
    supergraphSdl,
    buildService: ({ name, url }) => new ForwardingDataSource({
      url, apq: apq && name === 'moviegraph', fetcher: recordingFetcher(name),
    }),
  });
  const server = new ApolloServer({ gateway });
  const { url } = await startStandaloneServer(server, {
    listen: { host: '127.0.0.1', port: 0 },
    context: async ({ req }) => ({ incomingHeaders: req.headers }),
  });
  return { url, stop: () => server.stop() };
}

/** Hive Gateway's runtime on the same supergraph, in a Node http server: its url and a stop function. */
async function startHive(supergraphSdl, subgraphs) {
  const { createGatewayRuntime, useCustomFetch } = await import('@graphql-hive/gateway-runtime');
  const { createServer } = await import('node:http');
  const names = new Map(Object.entries(subgraphs).map(([name, url]) => [url, name]));
  const fetchers = new Map(Object.entries(subgraphs).map(([name]) => [name, recordingFetcher(name)]));
  const hive = createGatewayRuntime({
    supergraph: supergraphSdl,
    logging: 'error',
    propagateHeaders: {
      fromClientToSubgraphs: ({ request }) => Object.fromEntries(FORWARDED.map((name) => [name, request.headers.get(name)])
        .filter(([, value]) => value)),
    },
    plugins: () => [useCustomFetch((url, init) => {
      const fetcher = fetchers.get(names.get(String(url)));
      return fetcher ? fetcher(url, init) : fetch(url, init);
    })],
  });
  const server = createServer(hive);
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}/graphql`,
    stop: async () => {
      await new Promise((resolve) => server.close(resolve));
      await hive.dispose();
    },
  };
}

/** One operation through the gateway: its answer and what each subgraph was sent for it. */
async function through(gatewayUrl, query, variables = {}, headers = {}) {
  const from = sent.length;
  const answer = await post(gatewayUrl, { query, variables }, { traceparent, ...headers });
  return {
    query,
    variables,
    status: answer.status,
    cacheControl: answer.cacheControl,
    data: answer.json?.data ?? null,
    errors: answer.json?.errors ?? null,
    body: answer.json ? undefined : answer.text,
    subgraphRequests: sent.slice(from),
  };
}

report(async () => {
  const reviews = await startReviews(movieIds, reviewCount);
  const bookmarkIds = option('bookmarks')?.split(',') ?? null;
  const bookmarks = bookmarkIds ? await startBookmarks(bookmarkIds) : null;
  let gateway = null;
  let hive = null;
  try {
    const services = [
      { name: 'moviegraph', url: endpoint, typeDefs: parse(await sdlOf('moviegraph', endpoint)) },
      { name: 'reviews', url: reviews.url, typeDefs: parse(await sdlOf('reviews', reviews.url)) },
    ];
    if (bookmarks) {
      services.push({ name: 'bookmarks', url: bookmarks.url, typeDefs: parse(await sdlOf('bookmarks', bookmarks.url)) });
    }
    const composed = composeServices(services);
    const composition = {
      ok: !composed.errors,
      errors: (composed.errors ?? []).map((error) => error.message),
      hints: (composed.hints ?? []).map((hint) => `${hint.definition?.code ?? 'HINT'}: ${hint.message}`),
    };
    const result = {
      composition,
      traceparent,
      subgraphs: { moviegraph: endpoint, reviews: reviews.url, ...(bookmarks ? { bookmarks: bookmarks.url } : {}) },
      reviews: reviews.reviews.map(({ id, score, movieId }) => ({ id, score, movieId })),
      operations: {},
    };
    if (!composition.ok) {
      console.error(`composition failed:\n${composition.errors.join('\n')}`);
      process.exitCode = 1;
      return result;
    }
    gateway = await startGateway(composed.supergraphSdl);
    const ops = result.operations;
    const movieWithReviews = `query MovieWithReviews_${run}($id: ID!) { movie(id: $id) { title year reviews { score } } }`;
    const reviewsMovies = `query LatestReviewsMovies_${run} { latestReviews(first: ${first}) { score`
      + ' movie { id title year cast(first: 2) { edges { node { person { name } } } } } } }';
    const shouts = `query Shouts_${run} { latestReviews(first: ${first}) { movie { id shout } } }`;
    if (only.includes('a')) {
      ops.a = await through(gateway.url, movieWithReviews, { id: movieIds[0] });
    }
    if (only.includes('b')) {
      ops.b = await through(gateway.url, reviewsMovies);
    }
    if (only.includes('c')) {
      ops.c = await through(gateway.url, shouts);
    }
    if (only.includes('d')) {
      const viewer = `query Viewer_${run} { viewer { id } }`;
      ops.d = {
        withToken: token ? await through(gateway.url, viewer, {}, { authorization: `Bearer ${token}` }) : null,
        withoutToken: await through(gateway.url, viewer),
      };
    }
    if (apq && only.includes('a')) {
      ops.aAgain = await through(gateway.url, movieWithReviews, { id: movieIds[0] });
    }
    if (bookmarks) {
      ops.f = await through(gateway.url, `query Bookmarks_${run} { bookmarks { __typename id bookmarked`
        + ' ... on Movie { title } ... on Person { name } } }');
      ops.g = await through(gateway.url, `query MovieBookmarked_${run}($id: ID!) { movie(id: $id) { title bookmarked } }`,
        { id: movieIds[0] });
    }
    if (has('hive')) {
      hive = await startHive(composed.supergraphSdl, result.subgraphs);
      ops.e = {
        a: await through(hive.url, movieWithReviews, { id: movieIds[0] }),
        b: await through(hive.url, reviewsMovies),
        c: await through(hive.url, shouts),
      };
    }
    return result;
  } finally {
    await hive?.stop();
    await gateway?.stop();
    await bookmarks?.stop();
    await reviews.stop();
  }
}).then(() => process.exit(process.exitCode ?? 0));
