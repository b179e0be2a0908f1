/*
 * moviegraph — GraphiQL bootstrap.
 *
 * Loaded after the UMD bundles of React 18, ReactDOM 18 and GraphiQL 2.4.7
 * (all served from the webjars), which define window.React, window.ReactDOM
 * and window.GraphiQL. Kept in a file of its own so index.html needs no inline
 * script under the Content-Security-Policy. No JSX, no build step: elements are
 * made with React.createElement (h below).
 *
 * Besides the example tabs it adds a "DynamoDB" plugin (sidebar) that shows the
 * last response's extensions: the receipt (cost), the trace of every DynamoDB
 * call (header Moviegraph-Trace: on, the default here) or the plan
 * (Moviegraph-Trace: plan).
 */
(function () {
  'use strict';

  var root = document.getElementById('graphiql');

  function fail(message) {
    var p = document.createElement('p');
    p.className = 'moviegraph-error';
    p.textContent = message;
    root.replaceChildren(p);
  }

  if (!window.React || !window.ReactDOM || !window.GraphiQL) {
    fail('GraphiQL could not be loaded (missing '
      + ['React', 'ReactDOM', 'GraphiQL'].filter(function (n) { return !window[n]; }).join(', ')
      + '). The GraphQL endpoint is still available at POST /graphql.');
    return;
  }

  // The example tabs, in the order a newcomer meets them. Each is one named
  // operation (GraphiQL titles the tab with its name) and uses no deprecated
  // field: GraphiqlExamplesTest validates them against schema.graphqls and runs
  // the queries on the sample catalog.
  var EXAMPLES = [
    {
      query: [
        '# A movie, its directors and its top-billed cast (each a Person: try the',
        '# Filmography tab with an id from here). Next page of the cast:',
        '# cast(first: 5, after: endCursor).',
        'query Movie {',
        '  movie(id: "tt0111161") {',
        '    title',
        '    year',
        '    releaseDate',
        '    genres',
        '    runtimeMinutes',
        '    averageRating',
        '    directors {',
        '      person {',
        '        id',
        '        name',
        '      }',
        '    }',
        '    cast(first: 5) {',
        '      edges {',
        '        node {',
        '          characters',
        '          billing',
        '          person {',
        '            id',
        '            name',
        '            birthYear',
        '          }',
        '        }',
        '      }',
        '      pageInfo {',
        '        hasNextPage',
        '        endCursor',
        '      }',
        '    }',
        '  }',
        '}',
        ''
      ].join('\n')
    },
    {
      query: [
        '# A person and the movies they acted in, newest first. For what a director or',
        '# writer made, try nm0001104 (from the Movie tab) with directed and wrote.',
        'query Filmography {',
        '  person(id: "nm0000151") {',
        '    name',
        '    birthYear',
        '    professions',
        '    movies(first: 10) {',
        '      edges {',
        '        cursor',
        '        node {',
        '          characters',
        '          movie {',
        '            title',
        '            year',
        '          }',
        '        }',
        '      }',
        '      pageInfo {',
        '        hasNextPage',
        '        endCursor',
        '      }',
        '    }',
        '  }',
        '}',
        ''
      ].join('\n')
    },
    {
      query: [
        '# Search as you type: movies and people, most popular first. Every word is the',
        '# start of a word of the title or name, in any word order ("ii godf"); case,',
        '# accents and punctuation are ignored ("amelie" finds Amélie).',
        '# Next page: search(query: $q, first: 5, after: endCursor).',
        'query Search($q: String! = "godfather") {',
        '  search(query: $q, first: 5) {',
        '    edges {',
        '      node {',
        '        __typename',
        '        ... on Movie {',
        '          id',
        '          title',
        '          year',
        '        }',
        '        ... on Person {',
        '          id',
        '          name',
        '        }',
        '      }',
        '      knownFor {',
        '        title',
        '        year',
        '      }',
        '    }',
        '    pageInfo {',
        '      hasNextPage',
        '      endCursor',
        '    }',
        '  }',
        '}',
        ''
      ].join('\n')
    },
    {
      query: [
        '# Browse: the movies of a genre, a year or both, most voted first; and the top',
        '# rated (IMDb\'s rule: at least 25,000 votes), of all genres or of one.',
        '# Next page: after: endCursor.',
        'query Browse {',
        '  drama: browseMovies(genre: "Drama", first: 10) {',
        '    ...MoviePage',
        '  }',
        '  topRated(first: 10) {',
        '    ...MoviePage',
        '  }',
        '}',
        '',
        'fragment MoviePage on MovieConnection {',
        '  edges {',
        '    node {',
        '      id',
        '      title',
        '      year',
        '      numVotes',
        '      averageRating',
        '    }',
        '  }',
        '  pageInfo {',
        '    hasNextPage',
        '    endCursor',
        '  }',
        '}',
        ''
      ].join('\n')
    },
    {
      query: [
        '# The most streamed movies of a month.',
        'query TopOfMonth {',
        '  topMovies(month: "2024-05", limit: 10) {',
        '    streams',
        '    movie {',
        '      title',
        '      year',
        '      genres',
        '    }',
        '  }',
        '}',
        ''
      ].join('\n')
    },
    {
      query: [
        '# Monthly stream totals of one movie over a range of months.',
        'query StreamTotals {',
        '  movie(id: "tt0111161") {',
        '    title',
        '    streamTotals(from: "2024-01", to: "2024-06") {',
        '      month',
        '      streams',
        '    }',
        '  }',
        '}',
        ''
      ].join('\n')
    },
    {
      query: [
        '# Several movies at once (batched reads; unknown ids come back as null).',
        'query SeveralMovies {',
        '  movies(ids: ["tt0111161", "tt0068646", "tt0133093"]) {',
        '    title',
        '    year',
        '  }',
        '}',
        ''
      ].join('\n')
    },
    {
      query: [
        '# Live: the top list of May 2024, now and again whenever it changes in the table',
        '# (run the RecordStream tab in another tab, or write with any other client).',
        'subscription TopOfMay {',
        '  topMoviesChanged(month: "2024-05", limit: 5) {',
        '    streams',
        '    movie {',
        '      title',
        '    }',
        '  }',
        '}',
        ''
      ].join('\n')
    },
    {
      query: [
        '# Record a stream (exactly once per streamId: run it twice and the second answer',
        '# says counted: false). Writes are open on the embedded default; elsewhere they',
        '# need the header Authorization: Bearer <WRITE_TOKEN>.',
        'mutation RecordStream {',
        '  recordStream(input: {movieId: "tt0111161", streamId: "graphiql-1",',
        '                       at: "2024-05-17T20:15:00Z"}) {',
        '    month',
        '    counted',
        '    total',
        '  }',
        '}',
        ''
      ].join('\n')
    }
  ];

  // --- Default headers ------------------------------------------------------
  //
  // Moviegraph-Trace: on makes every response carry extensions.trace (each
  // DynamoDB call), which the DynamoDB panel below draws. GraphiQL applies
  // `defaultHeaders` only to tabs opened with "+", not to `defaultTabs`, so the
  // example tabs get the same headers explicitly.
  var TRACE_HEADER = 'Moviegraph-Trace';
  var DEFAULT_HEADERS = JSON.stringify({ 'Moviegraph-Trace': 'on' }, null, 2);
  EXAMPLES.forEach(function (tab) { tab.headers = DEFAULT_HEADERS; });

  // --- The last response's extensions -----------------------------------------
  //
  // A tiny store: the fetcher below writes to it, the DynamoDB panel listens.
  // state.running: the request in flight, if any ({operationName, mode});
  // state.last: the last finished one ({operationName, mode, at, response} or
  // {operationName, mode, at, error}).
  var store = {
    state: { running: null, last: null },
    listeners: new Set(),
    set: function (next) {
      store.state = next;
      store.listeners.forEach(function (listener) { listener(next); });
    },
    subscribe: function (listener) {
      store.listeners.add(listener);
      return function () { store.listeners.delete(listener); };
    }
  };

  /** The value of the Moviegraph-Trace header (any case) among request headers: on, plan or off. */
  function traceMode(headers) {
    var mode = 'off';
    Object.keys(headers || {}).forEach(function (name) {
      if (name.toLowerCase() === TRACE_HEADER.toLowerCase()) {
        mode = String(headers[name]).trim().toLowerCase() || 'off';
      }
    });
    return mode;
  }

  /** Fetcher options without the Moviegraph-Trace header. */
  function withoutTraceHeader(opts) {
    if (!opts || !opts.headers) {
      return opts;
    }
    var headers = {};
    Object.keys(opts.headers).forEach(function (name) {
      if (name.toLowerCase() !== TRACE_HEADER.toLowerCase()) {
        headers[name] = opts.headers[name];
      }
    });
    return Object.assign({}, opts, { headers: headers });
  }

  // --- Subscriptions: a graphql-transport-ws client ---------------------------
  //
  // GraphiQL runs a subscription through a `wsClient` with graphql-ws's
  // subscribe(payload, sink) shape. This is that client, small enough to need
  // no other bundle: one socket to /graphql (opened on the first subscription),
  // connection_init, pong for ping, one id per operation, and complete sent
  // when GraphiQL stops listening. A refused operation shows its errors.
  function createWsClient(url) {
    var socket = null;
    var acked = false;
    var waiting = [];
    var sinks = {};
    var nextId = 0;
    function open() {
      socket = new WebSocket(url, 'graphql-transport-ws');
      acked = false;
      socket.onopen = function () {
        socket.send(JSON.stringify({ type: 'connection_init' }));
      };
      socket.onmessage = function (event) {
        var message = JSON.parse(event.data);
        var sink = message.id ? sinks[message.id] : null;
        if (message.type === 'connection_ack') {
          acked = true;
          waiting.splice(0).forEach(function (text) { socket.send(text); });
        } else if (message.type === 'ping') {
          socket.send(JSON.stringify({ type: 'pong' }));
        } else if (sink && message.type === 'next') {
          sink.next(message.payload);
        } else if (sink && message.type === 'error') {
          delete sinks[message.id];
          sink.next({ errors: message.payload });
          sink.complete();
        } else if (sink && message.type === 'complete') {
          delete sinks[message.id];
          sink.complete();
        }
      };
      socket.onclose = function (event) {
        var open = sinks;
        sinks = {};
        socket = null;
        waiting = [];
        Object.keys(open).forEach(function (id) {
          open[id].next({ errors: [{ message: 'The WebSocket closed (' + event.code
            + (event.reason ? ': ' + event.reason : '') + ')' }] });
          open[id].complete();
        });
      };
    }
    function send(message) {
      var text = JSON.stringify(message);
      if (socket && acked && socket.readyState === 1) {
        socket.send(text);
      } else {
        waiting.push(text);
      }
    }
    return {
      subscribe: function (payload, sink) {
        if (!socket) {
          open();
        }
        var id = String(++nextId);
        sinks[id] = sink;
        send({ id: id, type: 'subscribe', payload: { query: payload.query,
          operationName: payload.operationName || null, variables: payload.variables || null } });
        return function () {
          if (sinks[id]) {
            delete sinks[id];
            send({ id: id, type: 'complete' });
          }
        };
      }
    };
  }

  // moviegraph answers with plain JSON (no @defer/@stream), so incremental
  // delivery is off: every query then comes back as one Promise instead of an
  // async iterable, and its extensions can be read below. Subscriptions go
  // over the WebSocket and come back as an async iterable of messages.
  var graphqlUrl = new URL('/graphql', window.location.href);
  var httpFetcher = window.GraphiQL.createFetcher({
    url: graphqlUrl.href,
    enableIncrementalDelivery: false,
    wsClient: createWsClient(graphqlUrl.href.replace(/^http/, 'ws'))
  });

  /** Shows each message of a subscription in the DynamoDB panel as it arrives. */
  function observed(iterable, request) {
    var iterator = iterable[Symbol.asyncIterator]();
    var wrapped = {
      next: function () {
        return iterator.next().then(function (step) {
          if (!step.done) {
            store.set({ running: null, last: Object.assign({ at: new Date() }, request, { response: step.value }) });
          }
          return step;
        });
      },
      return: function () {
        return iterator.return ? iterator.return() : Promise.resolve({ done: true, value: undefined });
      }
    };
    wrapped[Symbol.asyncIterator] = function () { return wrapped; };
    return wrapped;
  }
  var requestCount = 0;

  function fetcher(params, opts) {
    if (params && params.operationName === 'IntrospectionQuery') {
      // The schema is never traced nor planned (a plan has no data, so the
      // schema would not load while the header says plan), nor shown.
      return httpFetcher(params, withoutTraceHeader(opts));
    }
    var result = httpFetcher(params, opts);
    if (result && typeof result[Symbol.asyncIterator] === 'function') {
      return observed(result, { operationName: (params && params.operationName) || null, mode: 'off' });
    }
    if (!result || typeof result.then !== 'function') {
      return result;
    }
    var id = ++requestCount;
    var request = {
      operationName: (params && params.operationName) || null,
      mode: traceMode(opts && opts.headers)
    };
    store.set({ running: request, last: store.state.last });
    function finish(outcome) {
      if (id === requestCount) { // A newer request supersedes this one.
        store.set({ running: null, last: Object.assign({ at: new Date() }, request, outcome) });
      }
    }
    return result.then(function (response) {
      finish({ response: response });
      return response;
    }, function (error) {
      finish({ error: error && error.message ? error.message : String(error) });
      throw error;
    });
  }

  // --- Storage without credentials -------------------------------------------
  //
  // GraphiQL keeps its tabs in localStorage, with their headers (so that restored
  // tabs keep Moviegraph-Trace: on). A bearer token must not stay in the browser's
  // storage, where any script of this origin and anyone at this computer can read
  // it: this storage hands GraphiQL localStorage but drops credential headers from
  // what it writes (the headers editor's text, and each tab's headers in the tab
  // state). Headers that are not valid JSON yet (being typed) are kept only when
  // they name no credential.
  var CREDENTIALS = ['authorization', 'proxy-authorization', 'cookie'];
  var NAMESPACE = 'graphiql:';

  function withoutCredentials(text) {
    if (typeof text !== 'string' || text.trim() === '') {
      return text;
    }
    var headers;
    try {
      headers = JSON.parse(text);
    } catch (e) {
      headers = undefined;
    }
    if (!headers || typeof headers !== 'object' || Array.isArray(headers)) {
      var lower = text.toLowerCase();
      return CREDENTIALS.some(function (name) { return lower.indexOf(name) >= 0; }) ? '' : text;
    }
    var kept = {};
    var dropped = false;
    Object.keys(headers).forEach(function (name) {
      if (CREDENTIALS.indexOf(name.trim().toLowerCase()) >= 0) {
        dropped = true;
      } else {
        kept[name] = headers[name];
      }
    });
    return dropped ? JSON.stringify(kept, null, 2) : text;
  }

  /** The value GraphiQL may keep under this key: credentials taken out of headers. */
  function storable(key, value) {
    if (key === NAMESPACE + 'headers') {
      return withoutCredentials(value);
    }
    if (key === NAMESPACE + 'tabState' && typeof value === 'string') {
      try {
        var state = JSON.parse(value);
        (state && Array.isArray(state.tabs) ? state.tabs : []).forEach(function (tab) {
          if (tab && typeof tab.headers === 'string') {
            tab.headers = withoutCredentials(tab.headers);
          }
        });
        return JSON.stringify(state);
      } catch (e) {
        return value; // Not tab state GraphiQL could read back either.
      }
    }
    return value;
  }

  function credentialFreeStorage() {
    var local;
    try {
      local = window.localStorage;
      // What an earlier version of this page may have kept is cleaned once.
      [NAMESPACE + 'headers', NAMESPACE + 'tabState'].forEach(function (key) {
        var value = local.getItem(key);
        if (value !== null) {
          local.setItem(key, storable(key, value));
        }
      });
    } catch (e) {
      return null; // No storage (private mode, blocked): GraphiQL then keeps nothing.
    }
    function ownKeys() {
      var keys = [];
      for (var i = 0; i < local.length; i++) {
        if (local.key(i).indexOf(NAMESPACE) === 0) {
          keys.push(local.key(i));
        }
      }
      return keys;
    }
    return {
      getItem: function (key) { return local.getItem(key); },
      setItem: function (key, value) { local.setItem(key, storable(key, value)); },
      removeItem: function (key) { local.removeItem(key); },
      clear: function () { ownKeys().forEach(function (key) { local.removeItem(key); }); },
      get length() { return ownKeys().length; }
    };
  }

  // --- The DynamoDB panel (a GraphiQL plugin) ---------------------------------

  var React = window.React;
  var h = React.createElement;

  function useStore() {
    var pair = React.useState(store.state);
    var setState = pair[1];
    React.useEffect(function () {
      setState(store.state); // In case it changed between render and subscription.
      return store.subscribe(setState);
    }, []);
    return pair[0];
  }

  /** Milliseconds with as many decimals as are readable. */
  function ms(value) {
    var n = Number(value) || 0;
    return n.toFixed(n >= 100 ? 0 : n >= 10 ? 1 : 2);
  }

  /** Capacity units (the server rounds them to 3 decimals). */
  function units(value) {
    return String(Number(value) || 0);
  }

  function plural(n, one, many) {
    return n + ' ' + (n === 1 ? one : many);
  }

  function code(text) {
    return h('code', { className: 'moviegraph-code' }, text);
  }

  function stat(label, value, key) {
    return h('div', { className: 'moviegraph-stat', key: key || label },
      h('span', { className: 'moviegraph-stat-value' }, value),
      h('span', { className: 'moviegraph-stat-label' }, label));
  }

  /** A paragraph of help; children: a string or an array of strings and elements. */
  function hint(children, key) {
    return h.apply(null, ['p', { className: 'moviegraph-hint', key: key }].concat(children));
  }

  function Paths(props) {
    var paths = [].concat(props.paths || []);
    if (!paths.length) {
      return h('span', { className: 'moviegraph-muted' }, '—');
    }
    return h('span', { className: 'moviegraph-paths' },
      paths.map(function (path, i) { return h('code', { className: 'moviegraph-code', key: i }, path); }));
  }

  function table(headers, rows, className) {
    return h('div', { className: 'moviegraph-table-scroll' },
      h('table', { className: 'moviegraph-table' + (className ? ' ' + className : '') },
        h('thead', null, h('tr', null, headers.map(function (title, i) {
          var numeric = typeof title === 'object';
          return h('th', { key: i, className: numeric ? 'moviegraph-num' : undefined, title: numeric ? title.title : undefined },
            numeric ? title.label : title);
        }))),
        h('tbody', null, rows)));
  }

  /**
   * A table cell that carries its column's name: in a narrow panel the rows are
   * laid out as cards (page.css) and each figure shows its name above it.
   */
  function cell(label, className) {
    var children = Array.prototype.slice.call(arguments, 2);
    return h.apply(null, ['td', { className: className || undefined, 'data-label': label }].concat(children));
  }

  function num(label, title) {
    return { label: label, title: title };
  }

  function CostView(props) {
    var cost = props.cost;
    return h('section', { className: 'moviegraph-section' },
      h('h3', { className: 'moviegraph-heading' }, 'Receipt'),
      h('div', { className: 'moviegraph-stats' },
        stat('requests', cost.requests),
        stat('read units', units(cost.readUnits)),
        stat('write units', units(cost.writeUnits))));
  }

  function TraceView(props) {
    var trace = props.trace;
    var calls = trace.calls || [];
    // The scale of the waterfall: the whole request (and never less than the calls).
    var scale = calls.reduce(function (max, call) {
      return Math.max(max, (Number(call.startMs) || 0) + (Number(call.durationMs) || 0));
    }, Number(trace.totalMs) || 0);

    function bar(call) {
      var left = scale > 0 ? (Number(call.startMs) || 0) / scale * 100 : 0;
      var width = scale > 0 ? (Number(call.durationMs) || 0) / scale * 100 : 0;
      left = Math.min(Math.max(left, 0), 99.5);
      width = Math.min(Math.max(width, 0.5), 100 - left); // Always visible, never past the end.
      return h('div', { className: 'moviegraph-waterfall', title: 'starts at ' + ms(call.startMs) + ' ms, takes ' + ms(call.durationMs) + ' ms' },
        h('div', {
          className: 'moviegraph-waterfall-bar' + (call.failed ? ' moviegraph-failed-bar' : ''),
          style: { left: left.toFixed(2) + '%', width: width.toFixed(2) + '%' }
        }));
    }

    var rows = calls.map(function (call, i) {
      var key = call.keyCondition != null ? code(call.keyCondition)
        : plural(Number(call.keys) || 0, 'key', 'keys');
      return h(React.Fragment, { key: i },
        h('tr', { className: 'moviegraph-call' + (call.failed ? ' moviegraph-failed' : '') },
          cell('#', 'moviegraph-num moviegraph-muted', i + 1),
          cell('Operation', null, call.operation, call.failed ? h('span', { className: 'moviegraph-badge' }, 'failed') : null),
          cell('Index', null, call.index),
          cell('Pattern', 'moviegraph-wide', call.pattern),
          cell('Key', 'moviegraph-key moviegraph-wide', key),
          cell('Items', 'moviegraph-num', call.items),
          cell('Pages', 'moviegraph-num', call.pages),
          cell('Req.', 'moviegraph-num', call.requests),
          cell('RCU', 'moviegraph-num', units(call.readUnits)),
          cell('ms', 'moviegraph-num', ms(call.durationMs))),
        h('tr', { className: 'moviegraph-call-detail' + (call.failed ? ' moviegraph-failed' : '') },
          h('td', { className: 'moviegraph-spacer' }),
          h('td', { colSpan: 9, className: 'moviegraph-wide' }, h(Paths, { paths: call.paths }), bar(call))));
    });

    return h('section', { className: 'moviegraph-section' },
      h('h3', { className: 'moviegraph-heading' }, 'Trace'),
      h('div', { className: 'moviegraph-stats' },
        stat('ms total', ms(trace.totalMs)),
        stat('ms DynamoDB', ms(trace.dynamoDbMs)),
        stat('ms gateway', ms(trace.gatewayMs))),
      calls.length === 0
        ? hint('No DynamoDB call: nothing in this query needed the table.')
        : table(['#', 'Operation', 'Index', 'Pattern', 'Key', num('Items'), num('Pages'),
          num('Req.', 'HTTP requests, retries included'), num('RCU', 'read capacity units'), num('ms')],
          rows, 'moviegraph-calls'));
  }

  function PlanView(props) {
    var plan = props.plan;
    var fields = plan.fields || [];
    var rows = fields.map(function (field, i) {
      return h('tr', { key: i },
        cell('Paths', 'moviegraph-wide', h(Paths, { paths: field.paths })),
        cell('Pattern', 'moviegraph-wide', field.pattern),
        cell('Operation', null, field.operation),
        cell('Index', null, field.index),
        cell('Calls', 'moviegraph-num', field.calls),
        cell('Key template', 'moviegraph-key moviegraph-wide', field.keyTemplate != null ? code(field.keyTemplate) : '—'));
    });
    return h('section', { className: 'moviegraph-section' },
      h('h3', { className: 'moviegraph-heading' }, 'Plan (not executed)'),
      h('div', { className: 'moviegraph-stats' },
        stat('DynamoDB calls', plan.calls),
        stat('fields', fields.length)),
      fields.length === 0
        ? hint('No DynamoDB call: nothing in this query needs the table.')
        : table(['Paths', 'Pattern', 'Operation', 'Index', num('Calls'), 'Key template'], rows));
  }

  function LastResponse(props) {
    var last = props.last;
    var response = last.response && typeof last.response === 'object' ? last.response : {};
    var extensions = response.extensions || {};
    var errors = Array.isArray(response.errors) ? response.errors : [];
    var parts = [];

    parts.push(h('p', { className: 'moviegraph-meta', key: 'meta' },
      last.operationName ? code(last.operationName) : 'Anonymous operation',
      ' · ', TRACE_HEADER + ': ' + last.mode,
      ' · ', last.at.toLocaleTimeString()));

    if (last.error) {
      parts.push(h('p', { className: 'moviegraph-problem', key: 'error' }, 'The request failed: ' + last.error));
    }
    if (errors.length) {
      parts.push(h('p', { className: 'moviegraph-problem', key: 'errors' },
        plural(errors.length, 'error', 'errors') + ' in the response'
        + (errors[0] && errors[0].message ? ', first: ' + errors[0].message : '')));
    }
    if (extensions.plan) {
      parts.push(h(PlanView, { plan: extensions.plan, key: 'plan' }));
    }
    if (extensions.cost) {
      parts.push(h(CostView, { cost: extensions.cost, key: 'cost' }));
    }
    if (extensions.trace) {
      parts.push(h(TraceView, { trace: extensions.trace, key: 'trace' }));
    } else if (extensions.cost) {
      parts.push(hint(['No trace for this request: send header ', code(TRACE_HEADER + ': on'),
        ' to see every DynamoDB call.'], 'no-trace'));
    }
    if (!last.error && !extensions.plan && !extensions.cost) {
      parts.push(hint('This response has no DynamoDB receipt (the request was rejected before it ran).', 'none'));
    }
    return h(React.Fragment, null, parts);
  }

  function DynamoDbPanel() {
    var state = useStore();
    return h('div', { className: 'moviegraph-dynamo' },
      h('div', { className: 'moviegraph-title' }, 'DynamoDB'),
      state.running
        ? h('p', { className: 'moviegraph-meta moviegraph-running' },
          'Running ', state.running.operationName ? code(state.running.operationName) : 'an anonymous operation', '…')
        : null,
      state.last
        ? h(LastResponse, { last: state.last })
        : h(React.Fragment, null,
          hint(['Run a query: its DynamoDB receipt (requests, read and write units) shows here, and with header ',
            code(TRACE_HEADER + ': on'), ' (set in the Headers editor of these tabs) every call it made, in order, with its timing.'], 'run'),
          hint(['Header ', code(TRACE_HEADER + ': plan'),
            ' shows the plan instead: the DynamoDB calls a query would make, without running it.'], 'plan')));
  }

  function DynamoDbIcon(props) {
    // A database cylinder, drawn like GraphiQL's own icons (stroke in currentColor).
    return h('svg', Object.assign({
      viewBox: '0 0 24 24', fill: 'none', stroke: 'currentColor', strokeWidth: 1.5,
      strokeLinecap: 'round', strokeLinejoin: 'round'
    }, props),
    h('ellipse', { cx: 12, cy: 5, rx: 8, ry: 3 }),
    h('path', { d: 'M4 5v14c0 1.66 3.58 3 8 3s8-1.34 8-3V5' }),
    h('path', { d: 'M4 12c0 1.66 3.58 3 8 3s8-1.34 8-3' }));
  }

  // Created once: GraphiQL rebuilds its plugin list whenever this array changes.
  var PLUGINS = [{ title: 'DynamoDB', icon: DynamoDbIcon, content: DynamoDbPanel }];

  window.ReactDOM.createRoot(root).render(
    h(window.GraphiQL, {
      fetcher: fetcher,
      defaultTabs: EXAMPLES,
      // Used for tabs the user opens with "+".
      defaultQuery: '# Write a query here; see the other tabs for examples.\n\n{\n  movie(id: "tt0111161") {\n    title\n  }\n}\n',
      defaultHeaders: DEFAULT_HEADERS,
      plugins: PLUGINS,
      // Tabs are kept in localStorage; their headers too, or after a reload the
      // restored tabs would come back with empty headers (GraphiQL drops them
      // when not persisting) and so without Moviegraph-Trace: on. The storage
      // never keeps Authorization (see credentialFreeStorage); the settings
      // dialog can turn persisting off until the next page load.
      storage: credentialFreeStorage(),
      shouldPersistHeaders: true
    })
  );
})();
