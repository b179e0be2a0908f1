// A deferred fragment that fails (compiled by defer-relay.mjs): a movie at once, then, deferred, a second
// movie read by an id that is no movie id. @catch makes the field's error part of what the fragment reads.
graphql`
  query MovieDeferredOtherQuery($id: ID!, $other: ID!) {
    movie(id: $id) {
      title
    }
    ...MovieDeferredOther_query @defer(label: "other")
  }
`;

graphql`
  fragment MovieDeferredOther_query on Query {
    other: movie(id: $other) @catch {
      title
    }
  }
`;
