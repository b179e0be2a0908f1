// What the @defer scripts share: the operations they run, a fetch that records the headers each client
// sent and got (without reading the body the client streams), a reader of multipart/mixed answers for the
// clients that bring none (Relay), and the short forms of results the Java test asserts on.

/** A movie's title at once, its first three cast members in a deferred part. */
export const DEFERRED = `query Deferred($id: ID!) {
  movie(id: $id) {
    id
    title
    ... @defer(label: "cast") {
      cast(first: 3) { edges { node { billing person { id name } } } }
    }
  }
}`;

/**
 * A deferred part that fails: a movie at once, then, deferred, a second movie read by an id that is no movie
 * id (BAD_USER_INPUT at run time, the field null), as a page's secondary panel fails after its main one
 * showed.
 */
export const DEFERRED_ERROR = `query DeferredError($id: ID!, $other: ID!) {
  movie(id: $id) { id title }
  ... @defer(label: "other") {
    other: movie(id: $other) { id title }
  }
}`;

/**
 * A deferred part that fails on a non-null field: cast(first: 0) is out of range (BAD_USER_INPUT at run time,
 * as without @defer), and cast is non-null, so the deferred fragment's data is null.
 */
export const DEFERRED_NON_NULL_ERROR = `query DeferredCastError($id: ID!) {
  movie(id: $id) {
    id
    title
    ... @defer(label: "cast") {
      cast(first: 0) { edges { node { billing } } }
    }
  }
}`;

/** A subscription's first answer, then its update after recordStream (see subscriptions.mjs). */
export const TOP = 'subscription Top($month: YearMonth!) { topMoviesChanged(month: $month, limit: 1) { streams movie { id title } } }';

export const TIMEOUT_MS = 30_000;

/**
 * A fetch that records, for each request, its method, the Accept header the client sent, whether it sent an
 * Authorization header, and the status and Content-Type it got: the client reads the body itself, as it streams.
 */
export function headersFetch() {
  const exchanges = [];
  async function fetch(url, init = {}) {
    const headers = new Headers(init.headers ?? (url instanceof Request ? url.headers : undefined));
    const response = await globalThis.fetch(url, init);
    exchanges.push({
      method: (init.method ?? (url instanceof Request ? url.method : 'GET')).toUpperCase(),
      accept: headers.get('accept'),
      signedIn: headers.has('authorization'),
      status: response.status,
      contentType: response.headers.get('content-type'),
    });
    return response;
  }
  return { fetch, exchanges };
}

/** The names of a movie's cast as a result shows them; null when the result has no cast (yet). */
export function castNames(movie) {
  const edges = movie?.cast?.edges;
  return Array.isArray(edges) ? edges.map((edge) => edge.node.person.name) : null;
}

/** A GraphQL error as the Java test compares it. */
export function brief(error) {
  return { message: error.message, code: error.extensions?.code ?? null, path: error.path ?? null };
}

/**
 * The JSON parts of a multipart/mixed answer (the incremental delivery format), one by one as they come:
 * each part after a `--BOUNDARY` line is headers, a blank line, then the JSON; `--BOUNDARY--` ends it. A
 * delimiter starts a line, and JSON holds no raw line break, so a part's text never ends one early.
 */
export async function* multipartParts(response) {
  const type = response.headers.get('content-type') ?? '';
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1] ?? '-';
  const delimiter = `\r\n--${boundary}`;
  const decoder = new TextDecoder();
  let buffer = '\r\n'; // the first delimiter may open the body without a line break before it
  for await (const chunk of response.body) {
    buffer += decoder.decode(chunk, { stream: true });
    let at;
    while ((at = buffer.indexOf(delimiter)) >= 0) {
      const part = buffer.slice(0, at);
      buffer = buffer.slice(at + delimiter.length);
      const body = part.indexOf('\r\n\r\n');
      if (body >= 0 && part.slice(body + 4).trim() !== '') {
        yield JSON.parse(part.slice(body + 4));
      }
      if (buffer.startsWith('--')) return;
    }
  }
}

/** Resolves or rejects with the promise, or rejects after TIMEOUT_MS with what `progress()` shows. */
export function withTimeout(promise, progress) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out with ${JSON.stringify(progress())}`)), TIMEOUT_MS);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * A raw payload as a transport delivered it (graphql-sse, graphql-ws), as the Java test compares it: the
 * first payload's data and errors, a later one's incremental items.
 */
export function payload(result) {
  return {
    keys: Object.keys(result).sort(),
    hasNext: result.hasNext ?? null,
    title: result.data?.movie?.title ?? null,
    cast: castNames(result.data?.movie),
    errors: (result.errors ?? []).map(brief),
    incremental: (result.incremental ?? []).map((item) => ({
      path: item.path ?? null,
      label: item.label ?? null,
      cast: castNames(item.data),
      data: item.data ?? null,
      errors: (item.errors ?? []).map(brief),
    })),
  };
}

/** Every result of a client's iterate(request) until the server completes the operation. */
export async function collect(client, request) {
  const results = [];
  await withTimeout((async () => {
    for await (const result of client.iterate(request)) {
      results.push(payload(result));
    }
  })(), () => results);
  return results;
}
