// GraphiQL at /graphiql in real headless Chromium, as a developer uses it: a query, a query with @defer and a
// subscription, each typed into the query editor and run with GraphiQL's own button, read back from its result
// pane. Prints one JSON line of what it saw; GraphiqlBrowserTest asserts on it.
//
// usage: node graphiql.mjs http://127.0.0.1:PORT CHROMIUM USER_DATA_DIR MOVIE_ID MONTH
import { randomUUID } from 'node:crypto';

import { chromium } from 'playwright-core';

const [base, executablePath, userDataDir, movieId, month] = process.argv.slice(2);
const origin = new URL(base).origin;
const WAIT = { timeout: 20_000, polling: 50 };
/** Bytes per second of the throttled network the deferred answer comes over. */
const THROTTLE = 2_000;
/** Runs of the deferred query, at most, until its parts arrive in reads of their own. */
const ATTEMPTS = 4;
/** How long the first part must be whole before the last for the page to be expected to show it alone. */
const APART_MS = 100;

// The flags that work on a closed network (no background requests to Google's hosts, which are refused).
const context = await chromium.launchPersistentContext(userDataDir, {
  executablePath,
  headless: true,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
const out = { requests: [], foreign: [], pageErrors: [], consoleErrors: [] };
try {
  const page = context.pages()[0] ?? await context.newPage();
  page.on('pageerror', (error) => out.pageErrors.push(error.message));
  page.on('crash', () => out.pageErrors.push('the page crashed'));
  page.on('console', (message) => { if (message.type() === 'error') out.consoleErrors.push(message.text()); });
  // Every request the page makes, and every WebSocket it opens: only the server's origin may be asked.
  context.on('request', (request) => {
    const url = request.url();
    if (url.startsWith('data:') || url.startsWith('blob:')) return;
    out.requests.push(`${request.method()} ${new URL(url).pathname}`);
    if (new URL(url).origin !== origin) out.foreign.push(url);
  });
  page.on('websocket', (socket) => {
    const url = new URL(socket.url());
    out.requests.push(`WS ${url.pathname}`);
    if (url.host !== new URL(origin).host) out.foreign.push(socket.url());
  });

  // How the network delivered each multipart answer: its bytes read by read, with their times, from DevTools'
  // own Network domain (Chromium keeps no body of a streamed answer for Playwright to read): once the answer's
  // headers are in, streamResourceContent hands back what came so far and adds the bytes to each later read.
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  const reads = new Map();
  const urls = new Map();
  cdp.on('Network.requestWillBeSent', (event) => urls.set(event.requestId, event.request.url));
  cdp.on('Network.responseReceived', (event) => {
    const type = Object.entries(event.response.headers).find(([name]) => name.toLowerCase() === 'content-type');
    if (!type || !/^multipart\/mixed/.test(type[1])) return;
    const list = [];
    reads.set(event.response.url, list);
    cdp.send('Network.streamResourceContent', { requestId: event.requestId }).then((answer) => {
      list.unshift({ buffered: true, text: Buffer.from(answer.bufferedData || '', 'base64').toString() });
    }, (error) => list.push({ error: String(error) }));
  });
  cdp.on('Network.dataReceived', (event) => {
    const list = reads.get(urls.get(event.requestId));
    if (list) list.push({ at: event.timestamp * 1000, text: event.data ? Buffer.from(event.data, 'base64').toString() : null });
  });

  /**
   * A multipart answer as it arrived: its parts, and when the first and the last were whole (ms after the
   * first read): a part is whole at the delimiter after it. Null times when DevTools gave no bytes.
   */
  function arrival(list) {
    const buffered = list.find((r) => r.buffered);
    const times = list.filter((r) => r.at !== undefined).map((r) => r.at);
    const start = Math.min(...times);
    const chunks = [];
    if (buffered) chunks.push({ at: Math.max(start, ...list.filter((r) => r.at !== undefined && r.text === null).map((r) => r.at)),
      text: buffered.text });
    list.filter((r) => r.at !== undefined && r.text !== null).forEach((r) => chunks.push(r));
    let text = '';
    let firstWhole = null;
    let lastWhole = null;
    for (const chunk of chunks) {
      text += chunk.text;
      if (firstWhole === null && text.split('\r\n---').length > 2) firstWhole = chunk.at - start;
      if (lastWhole === null && text.includes('\r\n-----')) lastWhole = chunk.at - start;
    }
    const parts = text.split('\r\n---').slice(1, -1).map((part) => part.split('\r\n\r\n').slice(1).join('\r\n\r\n'))
      .map((body) => { try { return JSON.parse(body); } catch { return body; } });
    return { reads: times.length, firstWhole: firstWhole === null ? null : Math.round(firstWhole),
      lastWhole: lastWhole === null ? null : Math.round(lastWhole), parts, errors: list.filter((r) => r.error).map((r) => r.error) };
  }

  await page.goto(`${base}/graphiql`);
  await page.waitForSelector('.graphiql-query-editor .CodeMirror', { timeout: 30_000 });
  // The result pane's every value, in order (CodeMirror's change events): what a developer sees, part by part.
  await page.evaluate(() => {
    window.shownResults = [];
    const pane = document.querySelector('.result-window .CodeMirror').CodeMirror;
    pane.on('change', () => window.shownResults.push(pane.getValue()));
  });

  /**
   * Puts the operation in the query editor and runs it once GraphiQL has read it (the tab is titled with its
   * name); resolves to the pane's count of values before.
   */
  async function run(query) {
    const name = /^\s*(?:query|subscription)\s+(\w+)/.exec(query)[1];
    const before = await page.evaluate(() => window.shownResults.length);
    await page.evaluate((text) => document.querySelector('.graphiql-query-editor .CodeMirror').CodeMirror.setValue(text),
      query);
    await page.waitForFunction((title) => document.querySelector('.graphiql-tab-active .graphiql-tab-button')
      ?.textContent === title, name, WAIT);
    await page.click('.graphiql-execute-button');
    return before;
  }

  /** The pane's values since `from`, parsed, once the last shows `movie` (and, when `cast`, its cast and no more to come). */
  async function shownMovie(from, cast) {
    const handle = await page.waitForFunction(({ from, cast }) => {
      const shown = window.shownResults.slice(from).map((text) => { try { return JSON.parse(text); } catch { return null; } });
      const last = shown[shown.length - 1];
      const movie = last && last.data && last.data.movie;
      return movie && movie.title && (!cast || movie.cast && last.pending === false) ? shown : null;
    }, { from, cast }, WAIT);
    return handle.jsonValue();
  }

  // (a) A query: one JSON answer.
  const plain = await shownMovie(await run(`query Plain { movie(id: "${movieId}") { title year } }`), false);
  out.plain = plain[plain.length - 1];

  // (b) A query with @defer: the request accepts multipart/mixed, the answer is multipart, and the pane shows
  // the title first and then the cast merged into the same movie. The server sends the first part as soon as
  // the title is read and the cast after the reads it needs (its people's, then their movies'), some ms later;
  // a slow network (DevTools' throttling, a few KB/s) holds each read back, so that the page shows the first part
  // well before the next arrives. On a fast machine both parts can leave in one write, and so arrive in one read:
  // the query is run again (up to ATTEMPTS times) until the first part is whole APART_MS before the last.
  const deferredQuery = `query Deferred {
  movie(id: "${movieId}") {
    title
    ... @defer(label: "cast") {
      cast(first: 3) { edges { node { person { name birthYear movies(first: 2) { edges { node { movie { title } } } } } } } }
    }
  }
}`;
  out.deferred = [];
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: THROTTLE,
      uploadThroughput: -1 });
    const deferredResponse = page.waitForResponse((response) => response.url().endsWith('/graphql')
      && (response.request().postData() || '').includes('Deferred'), { timeout: 20_000 });
    reads.clear();
    const deferred = await shownMovie(await run(deferredQuery), true);
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1,
      uploadThroughput: -1 });
    const response = await deferredResponse;
    const received = arrival(reads.get(response.url()) || []);
    out.deferred.push({
      accept: response.request().headers().accept,
      contentType: response.headers()['content-type'],
      ...received,
      shown: deferred.map((r) => ({ title: r?.data?.movie?.title ?? null, cast: r?.data?.movie?.cast?.edges?.length ?? null,
        pending: r?.pending ?? null, errors: r?.errors ?? null })),
      final: deferred[deferred.length - 1],
    });
    if (received.firstWhole !== null && received.lastWhole - received.firstWhole >= APART_MS) break;
  }

  // (c) A subscription over the WebSocket: its first answer, then the update after a stream is recorded.
  const subscription = `subscription Live { topMoviesChanged(month: "${month}", limit: 1) { streams movie { id } } }`;
  const from = await run(subscription);
  const first = await page.waitForFunction(({ from }) => {
    const last = window.shownResults.slice(from).pop();
    try { return JSON.parse(last).data.topMoviesChanged[0] || null; } catch { return null; }
  }, { from }, WAIT);
  const top = await first.jsonValue();
  const recorded = await fetch(`${base}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: 'mutation($input: StreamInput!) { recordStream(input: $input) { counted } }',
      variables: { input: { movieId: top.movie.id, streamId: randomUUID(), at: `${month}-03T10:00:00Z` } } }) });
  out.recorded = await recorded.json();
  const updated = await page.waitForFunction(({ streams }) => {
    const last = window.shownResults[window.shownResults.length - 1];
    try {
      const value = JSON.parse(last).data.topMoviesChanged[0].streams;
      return value !== streams ? value : null;
    } catch { return null; }
  }, { streams: top.streams }, WAIT);
  out.subscription = { first: top.streams, updated: await updated.jsonValue(), movie: top.movie.id };
  // GraphiQL's button stops a running subscription (and so closes it on the server).
  await page.click('.graphiql-execute-button');
} catch (error) {
  out.error = String(error && error.stack || error);
  const page = context.pages()[0];
  out.shownAtError = await page?.evaluate(() => ({ shown: window.shownResults,
    pane: document.querySelector('.result-window .CodeMirror')?.CodeMirror?.getValue() })).catch(String);
  if (process.env.SCREENSHOT) await page?.screenshot({ path: process.env.SCREENSHOT }).catch(() => {});
} finally {
  await context.close();
}
console.log(JSON.stringify(out));
