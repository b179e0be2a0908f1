// Relay documents compiled by relay.mjs (never run themselves): a person card that refetches itself
// through Query.node(id:).
graphql`
  fragment PersonCard_person on Person @refetchable(queryName: "PersonCardRefetchQuery") {
    id
    name
    birthYear
  }
`;
