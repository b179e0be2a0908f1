/*
 * moviegraph — GraphiQL bootstrap.
 *
 * Loaded after the UMD bundles of React 18, ReactDOM 18 (webjars) and GraphiQL
 * 3.2.0 (mvnpm's jar), all served by moviegraph, which define window.React,
 * window.ReactDOM and window.GraphiQL, and after this page's examples.js,
 * incremental.js and panel.js (window.moviegraphGraphiql). Kept in files of
 * their own so index.html needs no inline script under the
 * Content-Security-Policy. No JSX, no build step.
 *
 * It opens the example tabs, sends the trace header, keeps tabs without
 * credentials, runs queries over HTTP (a query with @defer shown as its parts
 * arrive: incremental.js) and subscriptions over graphql-ws (createWsClient),
 * and feeds the "DynamoDB" panel (panel.js) each response's extensions.
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

  var ns = window.moviegraphGraphiql || {};
  // The example tabs (examples.js); none when it is missing.
  var EXAMPLES = ns.examples || [];

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

  // --- Queries over HTTP, @defer included -------------------------------------
  //
  // GraphiQL's fetcher asks for application/json or multipart/mixed. A query
  // with @defer comes back as multipart/mixed: a first part {data, hasNext:
  // true}, then parts {incremental: [{data, path, label, errors}], hasNext}
  // (Apollo's deferSpec=20220824), the last with the request's whole receipt.
  // GraphiQL 3.2 reads the parts (with the meros library it bundles) but merges
  // only the older {data, path} parts, so each part is merged here (see
  // incremental) and GraphiQL gets the whole result so far, part after part.
  // Any other query comes back as one JSON answer, as before.

  function pageFetch(input, init) {
    return window.fetch(input, init).then(ns.boundaryLast || function (response) { return response; });
  }

  var graphqlUrl = new URL('/graphql', window.location.href);
  var httpFetcher = window.GraphiQL.createFetcher({
    url: graphqlUrl.href,
    enableIncrementalDelivery: true,
    fetch: pageFetch,
    wsClient: createWsClient(graphqlUrl.href.replace(/^http/, 'ws'))
  });

  /** The operation params names (or the only one) in GraphiQL's parsed document: is it a subscription? */
  function isSubscription(params, opts) {
    var document = opts && opts.documentAST;
    var name = params && params.operationName;
    var operations = (document && document.definitions || []).filter(function (d) {
      return d.kind === 'OperationDefinition';
    });
    var chosen = operations.filter(function (d) { return name ? d.name && d.name.value === name : true; });
    return chosen.length === 1 && chosen[0].operation === 'subscription';
  }

  /** An async iterable of what map returns for each value of iterable. */
  function mapIterable(iterable, map, onEnd) {
    var iterator = iterable[Symbol.asyncIterator]();
    var ended = false;
    function end(error) {
      if (!ended) {
        ended = true;
        onEnd(error);
      }
    }
    var wrapped = {
      next: function () {
        return iterator.next().then(function (step) {
          if (step.done) {
            end();
            return step;
          }
          return { done: false, value: map(step.value) };
        }, function (error) {
          end(error);
          throw error;
        });
      },
      return: function () {
        end();
        return iterator.return ? iterator.return() : Promise.resolve({ done: true, value: undefined });
      }
    };
    wrapped[Symbol.asyncIterator] = function () { return wrapped; };
    return wrapped;
  }

  var requestCount = 0;

  function errorText(error) {
    return error && error.message ? error.message : String(error);
  }

  function fetcher(params, opts) {
    if (params && params.operationName === 'IntrospectionQuery') {
      // The schema is never traced nor planned (a plan has no data, so the
      // schema would not load while the header says plan), nor shown.
      return httpFetcher(params, withoutTraceHeader(opts));
    }
    var result = httpFetcher(params, opts);
    var operationName = (params && params.operationName) || null;
    if (isSubscription(params, opts)) {
      // Over the WebSocket: each message in the panel as it arrives.
      var subscription = { operationName: operationName, mode: 'off' };
      return mapIterable(result, function (message) {
        store.set({ running: null, last: Object.assign({ at: new Date() }, subscription, { response: message }) });
        return message;
      }, function () {});
    }
    var id = ++requestCount;
    var request = { operationName: operationName, mode: traceMode(opts && opts.headers) };
    store.set({ running: request, last: store.state.last });
    function show(outcome, running) {
      if (id === requestCount) { // A newer request supersedes this one.
        store.set({ running: running ? request : null,
          last: Object.assign({ at: new Date() }, request, outcome) });
      }
    }
    if (result && typeof result[Symbol.asyncIterator] === 'function') {
      var add = ns.incremental();
      var last = null;
      return mapIterable(result, function (value) {
        var parts = ns.incrementalParts(value);
        if (!parts) {
          last = value; // One JSON answer.
          show({ response: value }, false);
          return value;
        }
        var merged = add(parts);
        last = merged.result;
        show({ response: merged.result }, !merged.done);
        return merged.result;
      }, function (error) {
        if (error) {
          show({ error: errorText(error) }, false);
        } else if (last === null || id === requestCount && store.state.running) {
          show(last === null ? { error: 'no answer' } : { response: last }, false);
        }
      });
    }
    if (!result || typeof result.then !== 'function') {
      return result;
    }
    return result.then(function (response) {
      show({ response: response }, false);
      return response;
    }, function (error) {
      show({ error: errorText(error) }, false);
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

  // The DynamoDB panel (panel.js), created once: GraphiQL rebuilds its plugin
  // list whenever this array changes.
  var PLUGINS = ns.dynamoDbPlugin ? [ns.dynamoDbPlugin(store, TRACE_HEADER)] : [];
  var h = window.React.createElement;

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
