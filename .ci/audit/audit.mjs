// GraphQL-over-HTTP server audit using graphql-http's auditServer.
// Usage: node audit.mjs http://localhost:8125/graphql
// Exit code: 0 when every audit is ok (or a MAY "notice"), 1 on any warn/error,
// 2 on usage or fatal errors.
import { auditServer } from 'graphql-http';

const url = process.argv[2];
if (!url) {
  console.error('usage: node audit.mjs <graphql-endpoint-url>');
  process.exit(2);
}

// The failed audit's Response body may already have been read by the audit
// itself; read it defensively.
async function describeResponse(res) {
  if (!res) return '  (no response attached)';
  const headers = {};
  for (const [k, v] of res.headers.entries()) headers[k] = v;
  let body;
  if (res.bodyUsed) {
    body = '<body already consumed by the audit>';
  } else {
    try {
      body = await res.text();
      if (body.length > 2000) body = body.slice(0, 2000) + '... <truncated>';
    } catch (err) {
      body = `<could not read body: ${err?.message ?? err}>`;
    }
  }
  return [
    `  response status: ${res.status} ${res.statusText}`,
    `  response headers: ${JSON.stringify(headers)}`,
    `  response body: ${body === '' ? '<empty>' : body}`,
  ].join('\n');
}

let results;
try {
  results = await auditServer({ url });
} catch (err) {
  console.error('fatal error while auditing:', err);
  process.exit(2);
}

const counts = { ok: 0, notice: 0, warn: 0, error: 0 };
for (const r of results) {
  counts[r.status] = (counts[r.status] ?? 0) + 1;
  console.log(`[${r.status.toUpperCase()}] ${r.id} ${r.name}`);
  if (r.status !== 'ok') {
    console.log(`  reason: ${r.reason}`);
    console.log(await describeResponse(r.response));
  }
}

console.log(
  `\nsummary: ${results.length} audits - ok ${counts.ok}, ` +
    `notice ${counts.notice}, warn ${counts.warn}, error ${counts.error}`,
);
process.exit(counts.warn > 0 || counts.error > 0 ? 1 : 0);
