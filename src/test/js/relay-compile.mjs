// relay-compiler run on a folder of src/test/js against schema.graphqls, for relay.mjs and defer-relay.mjs.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

/**
 * The server runs @defer (graphql-java adds the directive to the schema it executes); relay-compiler knows
 * only the directives its schema file declares: the declaration of the incremental delivery draft, unless
 * schema.graphqls has one.
 */
const DEFER = '\ndirective @defer(label: String, if: Boolean! = true) on FRAGMENT_SPREAD | INLINE_FRAGMENT\n';

/**
 * Compiles the documents of `folder` (relay/, relay-defer/) in a scratch folder (relay-compiler reads only a
 * schema named .graphql, and writes its artifacts next to the sources) and loads the artifacts, which are
 * CommonJS modules, by name.
 */
export function compile(folder) {
  const root = mkdtempSync(join(tmpdir(), 'moviegraph-relay-'));
  process.on('exit', () => rmSync(root, { recursive: true, force: true }));
  mkdirSync(join(root, 'src'));
  cpSync(join(here, folder), join(root, 'src'), { recursive: true });
  const schema = readFileSync(join(here, '..', '..', '..', 'schema.graphqls'), 'utf8');
  writeFileSync(join(root, 'schema.graphql'), /directive\s+@defer\b/.test(schema) ? schema : schema + DEFER);
  writeFileSync(join(root, 'relay.config.json'),
    JSON.stringify({ src: './src', schema: './schema.graphql', language: 'javascript', eagerEsModules: false }));
  const compiler = spawnSync(join(here, 'node_modules', '.bin', 'relay-compiler'), [],
    { cwd: root, encoding: 'utf8' });
  if (compiler.status !== 0) {
    throw new Error(`relay-compiler failed (exit ${compiler.status}):\n${compiler.stdout}\n${compiler.stderr}`);
  }
  const generated = join(root, 'src', '__generated__');
  const require = createRequire(join(generated, 'index.js'));
  const artifacts = {};
  for (const file of readdirSync(generated)) {
    artifacts[file.replace('.graphql.js', '')] = require(join(generated, file));
  }
  return artifacts;
}

/**
 * Every message Relay reports from now on: it warns through console.error (fbjs warning) and console.warn,
 * which still print; a test fails on any.
 */
export function relayWarnings() {
  const warnings = [];
  for (const level of ['error', 'warn']) {
    const print = console[level];
    console[level] = (...args) => {
      warnings.push(args.map(String).join(' '));
      print(...args);
    };
  }
  return warnings;
}
