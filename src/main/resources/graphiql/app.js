/*
 * moviegraph — GraphiQL bootstrap.
 *
 * Loaded after the UMD bundles of React 18, ReactDOM 18 and GraphiQL 2.4.7
 * (all served from the webjars), which define window.React, window.ReactDOM
 * and window.GraphiQL. Kept in a file of its own so index.html needs no inline
 * script under the Content-Security-Policy.
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

  var EXAMPLES = [
    {
      query: [
        '# A movie and its top-billed cast (next page: cast(first: 5, after: endCursor)).',
        'query Movie {',
        '  movie(id: "tt0111161") {',
        '    title',
        '    year',
        '    releaseDate',
        '    genres',
        '    runtimeMinutes',
        '    cast(first: 5) {',
        '      edges {',
        '        node {',
        '          characters',
        '          billing',
        '          actor {',
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
        '# An actor and the movies they played in.',
        'query Filmography {',
        '  actor(id: "nm0000151") {',
        '    name',
        '    birthYear',
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
    }
  ];

  var fetcher = window.GraphiQL.createFetcher({
    url: new URL('/graphql', window.location.href).href
  });

  window.ReactDOM.createRoot(root).render(
    window.React.createElement(window.GraphiQL, {
      fetcher: fetcher,
      defaultTabs: EXAMPLES,
      // Used for tabs the user opens with "+".
      defaultQuery: '# Write a query here; see the other tabs for examples.\n\n{\n  movie(id: "tt0111161") {\n    title\n  }\n}\n',
      // Headers typed in the headers editor are sent with each request but
      // never written to localStorage (they may hold credentials).
      shouldPersistHeaders: false
    })
  );
})();
