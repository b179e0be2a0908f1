/*
 * moviegraph — GraphiQL's example tabs (window.moviegraphGraphiql.examples),
 * loaded before app.js, which opens them as GraphiQL's default tabs.
 */
(function () {
  'use strict';

  var ns = window.moviegraphGraphiql = window.moviegraphGraphiql || {};

  // The example tabs, in the order a newcomer meets them. Each is one named
  // operation (GraphiQL titles the tab with its name) and uses no deprecated
  // field: GraphiqlExamplesTest validates them against schema.graphqls and runs
  // the queries on the sample catalog.
  ns.examples = [
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
        '# The title at once, the cast when it comes: @defer sends the rest of the',
        '# answer first and each deferred fragment after it (multipart/mixed); the',
        '# result pane shows the first part, then the parts merged into it.',
        'query MovieDeferred {',
        '  movie(id: "tt0111161") {',
        '    title',
        '    year',
        '    ... @defer(label: "cast") {',
        '      cast(first: 5) {',
        '        edges {',
        '          node {',
        '            characters',
        '            person {',
        '              name',
        '            }',
        '          }',
        '        }',
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
})();
