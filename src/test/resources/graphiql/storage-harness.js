// Loads the real GraphiQL bootstrap (app.js, given as the first argument) with stand-ins for React,
// ReactDOM, GraphiQL and localStorage, takes the storage it hands GraphiQL, writes through it what
// GraphiQL writes, and prints what ended up in localStorage as JSON. GraphiqlStorageTest reads it.
'use strict';
const fs = require('fs');
const vm = require('vm');

const stored = new Map([
  // what an earlier version of the page kept
  ['graphiql:headers', '{"Authorization": "Bearer old-token", "Moviegraph-Trace": "on"}'],
  ['graphiql:theme', 'dark']
]);
const localStorage = {
  getItem: (key) => (stored.has(key) ? stored.get(key) : null),
  setItem: (key, value) => stored.set(key, String(value)),
  removeItem: (key) => stored.delete(key),
  key: (i) => [...stored.keys()][i] ?? null,
  get length() { return stored.size; }
};

let props = null;
const GraphiQL = function GraphiQL() {};
GraphiQL.createFetcher = () => () => Promise.resolve({});
const window = {
  localStorage,
  location: { href: 'http://127.0.0.1/graphiql' },
  React: { createElement: (type, p) => ({ type, props: p }), Fragment: 'Fragment', useState: () => [null, () => {}], useEffect: () => {} },
  ReactDOM: { createRoot: () => ({ render: (element) => { props = element.props; } }) },
  GraphiQL
};
const context = vm.createContext({ window, document: { getElementById: () => ({}) }, URL, JSON, Object, Array, Set, Promise });
vm.runInContext(fs.readFileSync(process.argv[2], 'utf8'), context);

const afterStart = Object.fromEntries(stored);
const storage = props.storage;
storage.setItem('graphiql:headers', '{\n  "authorization": "Bearer typed-token",\n  "Moviegraph-Trace": "plan"\n}');
const typedHeaders = stored.get('graphiql:headers');
storage.setItem('graphiql:headers', '{ "Authorization": "Bearer half-typ');
const halfTyped = stored.get('graphiql:headers');
storage.setItem('graphiql:headers', '{ "Moviegraph-Trace": "o');
const halfTypedHarmless = stored.get('graphiql:headers');
storage.setItem('graphiql:tabState', JSON.stringify({
  activeTabIndex: 0,
  tabs: [
    { id: 'a', title: 'A', query: '{ __typename }', variables: '', operationName: null,
      headers: '{"Authorization": "Bearer tab-token", "Moviegraph-Trace": "on"}' },
    { id: 'b', title: 'B', query: '{ __typename }', variables: '', operationName: null, headers: null }
  ]
}));
const tabState = JSON.parse(stored.get('graphiql:tabState'));
storage.setItem('graphiql:query', '{ movie(id: "tt0111161") { title } }');

console.log(JSON.stringify({
  shouldPersistHeaders: props.shouldPersistHeaders,
  afterStart,
  typedHeaders,
  halfTyped,
  halfTypedHarmless,
  tabHeaders: tabState.tabs.map((tab) => tab.headers),
  query: storage.getItem('graphiql:query'),
  length: storage.length,
  everything: Object.fromEntries(stored)
}));
