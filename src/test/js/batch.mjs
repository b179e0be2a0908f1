// Batched requests as clients send them: Apollo Client's BatchHttpLink (queries issued together go out as
// one POST of a JSON array) and graphql-request's batchRequests. Prints what each got and how many HTTP
// requests were made.
//
// usage: node batch.mjs http://127.0.0.1:PORT/graphql MOVIE_ID PERSON_ID
import { ApolloClient, InMemoryCache, gql } from '@apollo/client-3/core/index.js';
import { BatchHttpLink } from '@apollo/client-3/link/batch-http/index.js';
import { batchRequests } from 'graphql-request';

import { report } from './recording-fetch.mjs';

const [endpoint, movieId, personId] = process.argv.slice(2);

function countingFetch() {
  const bodies = [];
  return {
    bodies,
    fetch: (url, init = {}) => {
      bodies.push(JSON.parse(init.body));
      return globalThis.fetch(url, init);
    },
  };
}

async function apollo() {
  const { fetch, bodies } = countingFetch();
  const client = new ApolloClient({
    link: new BatchHttpLink({ uri: endpoint, fetch, batchMax: 10, batchInterval: 20 }),
    cache: new InMemoryCache(),
  });
  const [movie, person] = await Promise.all([
    client.query({ query: gql`query Movie($id: ID!) { movie(id: $id) { id title } }`, variables: { id: movieId } }),
    client.query({ query: gql`query Person($id: ID!) { person(id: $id) { id name } }`, variables: { id: personId } }),
  ]);
  return { title: movie.data.movie.title, name: person.data.person.name, requests: bodies.length,
    arrays: bodies.filter(Array.isArray).map((body) => body.length) };
}

async function graphqlRequest() {
  const answers = await batchRequests(endpoint, [
    { document: `query($id: ID!) { movie(id: $id) { title } }`, variables: { id: movieId } },
    { document: `query($id: ID!) { person(id: $id) { name } }`, variables: { id: personId } },
  ]);
  return { title: answers[0].data.movie.title, name: answers[1].data.person.name };
}

report(async () => ({ apollo: await apollo(), graphqlRequest: await graphqlRequest() }));
