// A second Apollo Federation 2 subgraph, written for the federation test (federation.mjs): reviews of the
// movies moviegraph serves. It extends moviegraph's Movie entity (Movie.reviews), points back at it
// (Review.movie, which the router resolves through moviegraph's _entities), and asks the router for
// moviegraph's title (Movie.shout @requires(fields: "title"): the title upper-cased, which it can only
// know from the representation the router built with moviegraph's answer). Its reviews are made from the
// movie ids it is given, so it fits whatever catalog the server under test loaded: review i (1..count) is
// of movie ids[(i - 1) % ids.length], the latest first. Its answers carry Cache-Control (Apollo Server's
// cache control from the @cacheControl hints below, 600 s: longer than moviegraph's, so a router's answer
// bounded by moviegraph's hint shows moviegraph's).
//
// usage: node reviews-subgraph.mjs MOVIE_ID[,MOVIE_ID...] [COUNT]   (prints its URL, serves until killed)
// or:    import { startReviews } from './reviews-subgraph.mjs'
import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginInlineTraceDisabled } from '@apollo/server/plugin/disabled';
import { startStandaloneServer } from '@apollo/server/standalone';
import { buildSubgraphSchema } from '@apollo/subgraph';
import { parse } from 'graphql';
import { pathToFileURL } from 'node:url';

export const REVIEWS_MAX_AGE = 600;

const typeDefs = parse(`
  extend schema @link(url: "https://specs.apollo.dev/federation/v2.3",
                      import: ["@key", "@external", "@requires", "@shareable"])

  enum CacheControlScope { PUBLIC PRIVATE }
  directive @cacheControl(maxAge: Int, scope: CacheControlScope, inheritMaxAge: Boolean)
    on FIELD_DEFINITION | OBJECT | INTERFACE | UNION

  type Review @key(fields: "id") @cacheControl(maxAge: ${REVIEWS_MAX_AGE}) {
    id: ID!
    "1 to 5"
    score: Int!
    text: String!
    movie: Movie!
  }

  type Movie @key(fields: "id") @cacheControl(maxAge: ${REVIEWS_MAX_AGE}) {
    id: ID!
    "The movie's reviews, the latest first."
    reviews: [Review!]!
    title: String! @external
    "moviegraph's title upper-cased: proves the router passed the title in the representation."
    shout: String! @requires(fields: "title")
  }

  type Query {
    latestReviews(first: Int = 5): [Review!]! @cacheControl(maxAge: ${REVIEWS_MAX_AGE})
  }
`);

/** The reviews of these movies: count of them, spread over the ids in turn, the latest (highest id) first. */
export function reviewsOf(movieIds, count) {
  const reviews = [];
  for (let i = count; i >= 1; i--) {
    const movieId = movieIds[(i - 1) % movieIds.length];
    reviews.push({ id: `review-${i}`, score: ((i * 7) % 5) + 1, text: `Review ${i} of ${movieId}`, movieId });
  }
  return reviews;
}

function resolvers(reviews) {
  const byId = new Map(reviews.map((review) => [review.id, review]));
  return {
    Query: {
      latestReviews: (_, { first }) => reviews.slice(0, Math.max(0, first)),
    },
    Review: {
      __resolveReference: ({ id }) => byId.get(id) ?? null,
      movie: (review) => ({ id: review.movieId }),
    },
    Movie: {
      // title is in the representation only when the router fetched it for shout (@requires)
      __resolveReference: ({ id, title }) => ({ id, title }),
      reviews: (movie) => reviews.filter((review) => review.movieId === movie.id),
      shout: (movie) => {
        if (typeof movie.title !== 'string') {
          throw new Error(`the router sent no title for movie ${movie.id}`);
        }
        return movie.title.toUpperCase();
      },
    },
  };
}

/** Starts the subgraph on a free port of 127.0.0.1: its url and a stop function. */
export async function startReviews(movieIds, count) {
  const reviews = reviewsOf(movieIds, count);
  const server = new ApolloServer({
    schema: buildSubgraphSchema({ typeDefs, resolvers: resolvers(reviews) }),
    plugins: [ApolloServerPluginInlineTraceDisabled()],
  });
  const { url } = await startStandaloneServer(server, { listen: { host: '127.0.0.1', port: 0 } });
  return { url, reviews, stop: () => server.stop() };
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [ids, count] = process.argv.slice(2);
  if (!ids) {
    console.error('usage: node reviews-subgraph.mjs MOVIE_ID[,MOVIE_ID...] [COUNT]');
    process.exit(2);
  }
  const { url } = await startReviews(ids.split(','), Number(count ?? 10));
  console.log(url);
}
