// @defer with Relay: relay-compiler compiles relay-defer/ (a query whose cast fragment is spread with
// @defer), and relay-runtime runs it through a network layer as Relay's docs describe for incremental
// delivery: the fetch function returns an Observable that emits each payload as it arrives. The server
// answers multipart/mixed (deferSpec=20220824): its first part goes to Relay as it is, and each item of a
// later part's `incremental` becomes one payload of its own, {data, path, label, hasNext} (with its errors
// and extensions), which is the form Relay's executor matches to the deferred fragment by label and path.
// After each payload the script reads the store as a component would: the query's data at once, the
// fragment's data missing until its payload came. Then a deferred fragment that fails (a second movie read by
// an id that is no movie id): the first payload's data stays, and the fragment, whose field has @catch,
// reads the field's error as Relay's field error handling gives it. Any warning Relay prints fails the script.
//
// usage: node defer-relay.mjs http://127.0.0.1:PORT/graphql MOVIE_ID OTHER_MOVIE_ID NOT_A_MOVIE_ID
import { compile, relayWarnings } from './relay-compile.mjs';
import { castNames, headersFetch, multipartParts, withTimeout } from './incremental.mjs';
import { report } from './recording-fetch.mjs';

const [endpoint, movieId, otherId, notAMovieId] = process.argv.slice(2);

const warnings = relayWarnings();

const artifacts = compile('relay-defer');
const {
  Environment, Network, Observable, RecordSource, Store, createOperationDescriptor, getSelector,
} = await import('relay-runtime');

/**
 * Relay's payloads from one part of the answer: the first as it is, a later one split by incremental item; a
 * later part with neither (a closing {hasNext: false}) gives Relay nothing, as it takes a payload without data
 * for a failed operation.
 */
function payloads(part) {
  if (!Array.isArray(part.incremental)) {
    return 'data' in part || 'errors' in part ? [part] : [];
  }
  return part.incremental.map((item, index) => ({
    data: item.data,
    path: item.path,
    label: item.label,
    ...(item.errors ? { errors: item.errors } : {}),
    ...(item.extensions || part.extensions ? { extensions: { ...part.extensions, ...item.extensions } } : {}),
    // only the part's last item may say the operation is done
    hasNext: index < part.incremental.length - 1 ? true : part.hasNext,
  }));
}

const { fetch, exchanges } = headersFetch();
let sent = [];

/** The network layer: one POST, and its parts as they arrive. */
function fetchFunction(params, variables) {
  return Observable.create((sink) => {
    const controller = new AbortController();
    (async () => {
      const response = await fetch(endpoint, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'multipart/mixed;deferSpec=20220824, application/graphql-response+json;q=0.9, application/json;q=0.8',
        },
        body: JSON.stringify({ query: params.text, variables }),
        signal: controller.signal,
      });
      const type = response.headers.get('content-type') ?? '';
      if (/^multipart\/mixed/i.test(type)) {
        for await (const part of multipartParts(response)) {
          for (const payload of payloads(part)) {
            sent.push({ label: payload.label ?? null, path: payload.path ?? null, hasNext: payload.hasNext ?? null });
            sink.next(payload);
          }
        }
      } else {
        const payload = await response.json();
        sent.push({ label: null, path: null, hasNext: payload.hasNext ?? null });
        sink.next(payload);
      }
      sink.complete();
    })().catch((error) => sink.error(error));
    return () => controller.abort();
  });
}

const environment = new Environment({
  network: Network.create(fetchFunction),
  store: new Store(new RecordSource()),
});

/** What a component tree shows now: the query's own fields, and the deferred fragment's. */
function castSnapshot(operation) {
  const query = environment.lookup(operation.fragment);
  const movie = query.data?.movie;
  const fragment = movie ? environment.lookup(getSelector(artifacts.MovieDeferredCast_movie, movie)) : null;
  return {
    title: movie?.title ?? null,
    queryMissingData: query.isMissingData,
    castMissingData: fragment?.isMissingData ?? null,
    cast: fragment ? castNames(fragment.data) : null,
  };
}

/** The same for the failing operation: the first movie, and the deferred fragment's caught field. */
function otherSnapshot(operation) {
  const query = environment.lookup(operation.fragment);
  const fragment = query.data ? environment.lookup(getSelector(artifacts.MovieDeferredOther_query, query.data)) : null;
  const other = fragment?.data?.other;
  return {
    title: query.data?.movie?.title ?? null,
    queryMissingData: query.isMissingData,
    otherMissingData: fragment?.isMissingData ?? null,
    other: other == null ? null : {
      ok: other.ok,
      value: other.value ?? null,
      errors: other.errors ?? [],
    },
  };
}

/** Runs one operation to its end, a snapshot after each payload; what the network layer gave Relay. */
async function run(name, variables, snapshot) {
  sent = [];
  const operation = createOperationDescriptor(artifacts[name], variables);
  environment.retain(operation);
  const snapshots = [];
  await withTimeout(new Promise((resolve, reject) => {
    environment.execute({ operation }).subscribe({
      next: () => snapshots.push(snapshot(operation)),
      error: reject,
      complete: resolve,
    });
  }), () => snapshots);
  return {
    label: /@defer\(label: "([^"]+)"\)/.exec(artifacts[name].params.text)?.[1] ?? null,
    payloads: sent,
    snapshots,
    final: snapshot(operation),
  };
}

report(async () => {
  const cast = await run('MovieDeferredQuery', { id: movieId }, castSnapshot);
  const failing = await run('MovieDeferredOtherQuery', { id: otherId, other: notAMovieId }, otherSnapshot);
  const result = { compiled: Object.keys(artifacts).sort(), exchanges, ...cast, failing, warnings };
  if (warnings.length > 0) {
    process.exitCode = 1;
  }
  return result;
});
