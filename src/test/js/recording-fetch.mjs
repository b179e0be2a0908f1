// A fetch for the clients under test that records every exchange with the server (what was sent, what
// came back), so a script can print the exact protocol a client followed and the Java test can assert it.

/** The request parameters of a GET (URL query) or POST (JSON body). */
function parameters(url, init) {
  if ((init.method ?? 'GET').toUpperCase() === 'GET') {
    const params = new URL(url).searchParams;
    const json = (name) => (params.has(name) ? JSON.parse(params.get(name)) : null);
    return { query: params.get('query'), extensions: json('extensions'), variables: json('variables') };
  }
  const body = JSON.parse(init.body);
  return { query: body.query ?? null, extensions: body.extensions ?? null, variables: body.variables ?? null };
}

export function recordingFetch() {
  const exchanges = [];
  async function fetch(url, init = {}) {
    const sent = parameters(String(url), init);
    const response = await globalThis.fetch(url, init);
    const body = await response.clone().json().catch(() => null);
    exchanges.push({
      method: (init.method ?? 'GET').toUpperCase(),
      query: sent.query,
      sha256Hash: sent.extensions?.persistedQuery?.sha256Hash ?? null,
      status: response.status,
      cacheControl: response.headers.get('cache-control'),
      code: body?.errors?.[0]?.extensions?.code ?? null,
      data: body?.data ?? null,
    });
    return response;
  }
  return { fetch, exchanges };
}

/** Runs a script's body and prints its result as one JSON line; any failure exits 1 with the error. */
export async function report(body) {
  try {
    console.log(JSON.stringify(await body()));
  } catch (error) {
    console.error(error?.stack ?? String(error));
    process.exit(1);
  }
}
