// A third Apollo Federation 2 subgraph, written for the federation test (federation.mjs --bookmarks): it adds
// a field to every node of moviegraph's Node entity interface without knowing movies or people, through
// @interfaceObject (Federation 2.3). Its Query.bookmarks answers Node references by id alone, which the router
// resolves to Movie or Person by asking moviegraph's _entities with {__typename: "Node", id}; Node.bookmarked
// is its own field, which the router asks of it for any movie or person moviegraph answered.
//
// import { startBookmarks } from './bookmarks-subgraph.mjs'; startBookmarks(NODE_IDS) → { url, stop }
import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginInlineTraceDisabled } from '@apollo/server/plugin/disabled';
import { startStandaloneServer } from '@apollo/server/standalone';
import { buildSubgraphSchema } from '@apollo/subgraph';
import { parse } from 'graphql';

const typeDefs = parse(`
  extend schema @link(url: "https://specs.apollo.dev/federation/v2.3", import: ["@key", "@interfaceObject"])

  type Node @key(fields: "id") @interfaceObject {
    id: ID!
    "Whether the node is bookmarked here."
    bookmarked: Boolean!
  }

  type Query {
    "The bookmarked nodes, in the order they were bookmarked: ids alone, whatever their kind."
    bookmarks: [Node!]!
  }
`);

/** Starts the subgraph on a free port of 127.0.0.1 with these node ids bookmarked: its url and a stop function. */
export async function startBookmarks(nodeIds) {
  const bookmarked = new Set(nodeIds);
  const server = new ApolloServer({
    schema: buildSubgraphSchema({
      typeDefs,
      resolvers: {
        Query: { bookmarks: () => nodeIds.map((id) => ({ id })) },
        Node: {
          __resolveReference: ({ id }) => ({ id }),
          bookmarked: ({ id }) => bookmarked.has(id),
        },
      },
    }),
    plugins: [ApolloServerPluginInlineTraceDisabled()],
  });
  const { url } = await startStandaloneServer(server, { listen: { host: '127.0.0.1', port: 0 } });
  return { url, stop: () => server.stop() };
}
