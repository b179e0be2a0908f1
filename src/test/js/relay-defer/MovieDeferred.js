// Relay documents compiled by defer-relay.mjs (never run themselves): a movie page whose title comes at
// once and whose cast, a fragment spread with @defer, comes in a later payload. relay-compiler gives the
// deferred spread its own label (MovieDeferredQuery$defer$cast), which the server returns with the part.
graphql`
  query MovieDeferredQuery($id: ID!) {
    movie(id: $id) {
      title
      ...MovieDeferredCast_movie @defer(label: "cast")
    }
  }
`;

graphql`
  fragment MovieDeferredCast_movie on Movie {
    cast(first: 3) {
      edges {
        node {
          billing
          person {
            name
          }
        }
      }
    }
  }
`;
