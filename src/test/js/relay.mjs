// Relay against the server: relay-compiler compiles the documents of relay/ (a @refetchable fragment and
// two @connection pagination fragments) against schema.graphqls, then relay-runtime runs the generated
// queries as Relay's hooks do: a refetch through node(id:), and the second page of a cast and of a search
// by the first page's endCursor, merged into the store's connection. Any warning Relay prints (a field
// missing from a payload, conflicting types for one id) or missing data in a read fails the script.
//
// usage: node relay.mjs http://127.0.0.1:PORT/graphql MOVIE_ID PERSON_ID SEARCH_QUERY
import { compile, relayWarnings } from './relay-compile.mjs';
import { report } from './recording-fetch.mjs';

const [endpoint, movieId, personId, searchQuery] = process.argv.slice(2);

const warnings = relayWarnings();

const artifacts = compile('relay');
const {
  Environment, Network, RecordSource, Store, createOperationDescriptor, getSelector,
} = await import('relay-runtime');

const environment = new Environment({
  network: Network.create(async (operation, variables) => {
    const response = await fetch(endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json' },
      body: JSON.stringify({ query: operation.text, variables }),
    });
    return response.json();
  }),
  store: new Store(new RecordSource()),
});

/** Runs a generated query into the store, kept there (retained) for the reads that follow. */
async function execute(name, variables) {
  const operation = createOperationDescriptor(artifacts[name], variables);
  environment.retain(operation);
  await environment.execute({ operation }).toPromise();
  return read(operation.fragment, name);
}

/** A read of the store, as a component would render it; missing data is a failure. */
function read(selector, what) {
  const snapshot = environment.lookup(selector);
  if (snapshot.isMissingData) {
    throw new Error(`${what}: the store is missing data for ${JSON.stringify(snapshot.data)}`);
  }
  return snapshot.data;
}

function fragment(name, reference) {
  return read(getSelector(artifacts[name], reference), name);
}

/** A connection's page as the Java test asserts it. */
function page(connection, show) {
  return {
    nodes: connection.edges.map((edge) => show(edge.node)),
    hasNextPage: connection.pageInfo.hasNextPage,
    endCursor: connection.pageInfo.endCursor,
  };
}

async function refetch() {
  const data = await execute('PersonCardRefetchQuery', { id: personId });
  return fragment('PersonCard_person', data.node);
}

async function cast() {
  const movie = (await execute('MovieCastQuery', { id: movieId })).movie;
  const person = (node) => fragment('PersonCard_person', node.person);
  const first = page(fragment('MovieCast_movie', movie).cast, (node) => person(node).name);
  // usePaginationFragment's loadNext: the refetch query with the cursor; Relay's connection handler
  // appends the page to the connection the first query read.
  await execute('MovieCastPaginationQuery', { id: movieId, count: 3, cursor: first.endCursor });
  const both = fragment('MovieCast_movie', movie);
  const people = both.cast.edges.map((edge) => person(edge.node));
  return { title: both.title, totalCount: both.cast.totalCount, first, both: page(both.cast, (node) => person(node).name),
    ids: people.map((card) => card.id) };
}

async function search() {
  const root = await execute('SearchResultsQuery', { query: searchQuery });
  const show = (node) => `${node.__typename}:${node.id}`;
  const first = page(fragment('SearchResults_query', root).search, show);
  await execute('SearchResultsPaginationQuery', { query: searchQuery, count: 3, cursor: first.endCursor });
  return { first, both: page(fragment('SearchResults_query', root).search, show) };
}

report(async () => {
  const result = { compiled: Object.keys(artifacts).sort(), refetch: await refetch(), cast: await cast(),
    search: await search(), warnings };
  if (warnings.length > 0) {
    process.exitCode = 1;
  }
  return result;
});
