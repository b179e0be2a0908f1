// Relay documents compiled by relay.mjs (never run themselves): a movie's cast, paginated with
// @connection, each member's person shown by the refetchable PersonCard fragment.
graphql`
  query MovieCastQuery($id: ID!) {
    movie(id: $id) {
      ...MovieCast_movie
    }
  }
`;

graphql`
  fragment MovieCast_movie on Movie
  @refetchable(queryName: "MovieCastPaginationQuery")
  @argumentDefinitions(count: { type: "Int", defaultValue: 3 }, cursor: { type: "String" }) {
    title
    cast(first: $count, after: $cursor) @connection(key: "MovieCast_cast") {
      totalCount
      edges {
        node {
          billing
          characters
          person {
            ...PersonCard_person
          }
        }
      }
    }
  }
`;
