// Relay documents compiled by relay.mjs (never run themselves): search results, paginated with
// @connection on Query.
graphql`
  query SearchResultsQuery($query: String!) {
    ...SearchResults_query @arguments(query: $query)
  }
`;

graphql`
  fragment SearchResults_query on Query
  @refetchable(queryName: "SearchResultsPaginationQuery")
  @argumentDefinitions(
    query: { type: "String!" }
    count: { type: "Int", defaultValue: 3 }
    cursor: { type: "String" }
  ) {
    search(query: $query, first: $count, after: $cursor) @connection(key: "SearchResults_search") {
      edges {
        node {
          __typename
          ... on Movie {
            id
            title
          }
          ... on Person {
            id
            name
          }
        }
      }
    }
  }
`;
