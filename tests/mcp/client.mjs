// A generic MCP test client built on the official TypeScript SDK (@modelcontextprotocol/sdk,
// pinned by tests/mcp/package-lock.json, installed by scripts/fetch-mcp-sdk.sh).
// tests/e2e/test_mcp.py drives `kebab mcp` through it, so kebab is checked by a client that
// nobody here wrote: the SDK's zod schemas validate every result's shape, and (after
// tools/list, which this client calls first) Ajv validates each tool's structuredContent
// against the tool's outputSchema.
//
// Usage: KEBAB_MCP_SDK_DIR=DIR node tests/mcp/client.mjs [SCRIPT]
//   DIR     what scripts/fetch-mcp-sdk.sh prints (the directory holding node_modules/)
//   SCRIPT  a JSON object; without it, the first line of stdin is the script.
//
// Script:
//   {"transport": "stdio",                       (default) spawn the server:
//    "command": "/path/kebab", "args": ["--config", "C", "mcp"], "env": {...}, "cwd": "...",
//                  env is added to the SDK's default environment (HOME LOGNAME PATH SHELL
//                  TERM USER taken from this process), as any SDK-based host does
//    "transport": "http", "url": "http://127.0.0.1:PORT/mcp"   (Streamable HTTP, not spawned)
//    "headers": {...}           http: sent with every request (e.g. Authorization)
//    "timeout_ms": 60000,       per request
//    "close_timeout_ms": 5000,  stdio: how long the server may take to exit after stdin EOF
//    "prime_tools": true,       call tools/list once after initialize (so callTool validates)
//    "steps": [STEP...],        run in order
//    "interactive": false}      true: then read further steps from stdin, one JSON line each,
//                               answering each before reading the next, until EOF
//
// Steps ({"op": ...}):
//   listTools {cursor}           listResources {cursor}       readResource {uri}
//   listResourceTemplates        ping
//   callTool {name, arguments, timeout_ms, progress: bool, abort_after_ms}
//                                client.callTool with CallToolResultSchema (+ outputSchema)
//   request {method, params, schema}   any request; the result is parsed with the SDK's
//                                <schema>Schema when given (e.g. "CallToolResult"), else
//                                only as a JSON-RPC result object
//   notify {method, params}      a notification
//   stderr                       what the server wrote on stderr so far (stdio)
//   sleep {ms}
//
// Output on stdout, one JSON line each:
//   {"op": "connect", "ok": true, "serverInfo", "capabilities", "protocolVersion",
//    "instructions", "tools_primed", "prime_error", "sdk": {"version", "latest_protocol_version",
//    "supported_protocol_versions"}}            (or "ok": false, "error", then "close")
//   {"i": N, "op": OP, "ok": true, "result": ..., "progress": [...]}
//   {"i": N, "op": OP, "ok": false, "error": {"code", "message", "data", "name"}}
//   {"op": "close", "exit": {"code", "signal"} | null, "exit_ms", "killed", "stderr",
//    "transport_errors": [...]}
// An error's message is the SDK's ("MCP error -32602: ..." for a JSON-RPC error response).
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { pathToFileURL } from 'node:url';

const sdkDir = process.env.KEBAB_MCP_SDK_DIR;
if (!sdkDir) {
  process.stderr.write('client.mjs: set KEBAB_MCP_SDK_DIR (the output of scripts/fetch-mcp-sdk.sh)\n');
  process.exit(2);
}
const sdkRoot = path.join(sdkDir, 'node_modules', '@modelcontextprotocol', 'sdk');
const sdkPackage = JSON.parse(fs.readFileSync(path.join(sdkRoot, 'package.json'), 'utf8'));

// An ES module outside this file's node_modules chain: NODE_PATH does not apply to `import`, so
// resolve "@modelcontextprotocol/sdk/<subpath>" through the package's own exports map.
async function sdk(subpath) {
  const exp = sdkPackage.exports;
  let target = exp[`./${subpath}`];
  if (target === undefined) target = JSON.parse(JSON.stringify(exp['./*']).replaceAll('*', subpath));
  while (target && typeof target === 'object') target = target.import ?? target.default;
  if (typeof target !== 'string') throw new Error(`@modelcontextprotocol/sdk does not export ./${subpath}`);
  return import(pathToFileURL(path.join(sdkRoot, target)).href);
}

const { Client } = await sdk('client/index.js');
const { StdioClientTransport } = await sdk('client/stdio.js');
const { StreamableHTTPClientTransport } = await sdk('client/streamableHttp.js');
const types = await sdk('types.js');

function out(obj) {
  return new Promise(resolve => {
    if (process.stdout.write(JSON.stringify(obj) + '\n')) resolve();
    else process.stdout.once('drain', resolve);
  });
}

function errorJson(e) {
  return {
    code: typeof e?.code === 'number' ? e.code : null,
    message: String(e?.message ?? e),
    data: e?.data ?? null,
    name: e?.name ?? null,
  };
}

const sleep = ms => new Promise(resolve => setTimeout(resolve, ms));

// ------------------------------------------------------------------------------ the script

const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
const lineIter = lines[Symbol.asyncIterator]();
async function nextLine() {
  for (;;) {
    const { value, done } = await lineIter.next();
    if (done) return null;
    if (value.trim()) return value;
  }
}

let script;
try {
  const text = process.argv[2] ?? (await nextLine());
  if (text == null) throw new Error('no script on argv or stdin');
  script = JSON.parse(text);
} catch (e) {
  process.stderr.write(`client.mjs: bad script: ${e.message}\n`);
  process.exit(2);
}

const timeout = script.timeout_ms ?? 60000;
const transportErrors = [];
let stderrText = '';
let child = null;
let exit = null;
let exited = null;

const client = new Client({ name: 'kebab-e2e-client', version: '1.0.0' }, { capabilities: {} });
client.onerror = e => transportErrors.push(String(e?.message ?? e));

let transport;
if ((script.transport ?? 'stdio') === 'stdio') {
  transport = new StdioClientTransport({
    command: script.command,
    args: script.args ?? [],
    env: script.env ?? {},
    cwd: script.cwd,
    stderr: 'pipe',
  });
  transport.stderr.on('data', chunk => {
    if (stderrText.length < (1 << 20)) stderrText += chunk.toString('utf8');
  });
  // The server's exit status is reported too (the SDK does not expose it: _process is its
  // internal handle to the child).
  const start = transport.start.bind(transport);
  transport.start = async () => {
    await start();
    child = transport._process ?? null;
    exited = child && new Promise(resolve => child.once('exit', (code, signal) => {
      exit = { code, signal };
      resolve();
    }));
  };
} else if (script.transport === 'http') {
  transport = new StreamableHTTPClientTransport(new URL(script.url),
                                                { requestInit: { headers: script.headers ?? {} } });
} else {
  process.stderr.write(`client.mjs: unknown transport ${script.transport}\n`);
  process.exit(2);
}
// The protocol version the server answered initialize with: Client hands it to the transport.
let protocolVersion = null;
const setVersion = transport.setProtocolVersion?.bind(transport);
transport.setProtocolVersion = v => {
  protocolVersion = v;
  setVersion?.(v);
};

async function close() {
  let killed = false;
  const t0 = Date.now();
  if (child && !exit) {
    try { child.stdin.end(); } catch { /* already closed */ }
    await Promise.race([exited, sleep(script.close_timeout_ms ?? 5000)]);
  }
  const exitMs = exit ? Date.now() - t0 : null;
  if (child && !exit) killed = true;  // client.close() sends SIGTERM, then SIGKILL
  if (script.transport === 'http') {
    try { await transport.terminateSession(); } catch { /* optional for servers */ }
  }
  await client.close();
  if (child && !exit) await Promise.race([exited, sleep(5000)]);
  await out({ op: 'close', exit, exit_ms: exitMs, killed, stderr: stderrText,
              transport_errors: transportErrors });
}

// ------------------------------------------------------------------------------ steps

async function runStep(step) {
  const opts = { timeout: step.timeout_ms ?? timeout };
  const progress = [];
  if (step.progress) opts.onprogress = p => progress.push(p);
  if (step.abort_after_ms !== undefined) {
    const ac = new AbortController();
    setTimeout(() => ac.abort('aborted by the test'), step.abort_after_ms);
    opts.signal = ac.signal;
  }
  let result;
  switch (step.op) {
    case 'listTools': result = await client.listTools(step.cursor ? { cursor: step.cursor } : undefined, opts); break;
    case 'listResources': result = await client.listResources(step.cursor ? { cursor: step.cursor } : undefined, opts); break;
    case 'listResourceTemplates': result = await client.listResourceTemplates(undefined, opts); break;
    case 'readResource': result = await client.readResource({ uri: step.uri }, opts); break;
    case 'ping': result = await client.ping(opts); break;
    case 'callTool':
      result = await client.callTool({ name: step.name, arguments: step.arguments ?? {} },
                                     types.CallToolResultSchema, opts);
      break;
    case 'request': {
      const schema = step.schema ? types[`${step.schema}Schema`] : types.ResultSchema;
      if (!schema) throw new Error(`no SDK schema named ${step.schema}Schema`);
      const req = { method: step.method };
      if (step.params !== undefined) req.params = step.params;
      result = await client.request(req, schema, opts);
      break;
    }
    case 'notify': {
      const n = { method: step.method };
      if (step.params !== undefined) n.params = step.params;
      await client.notification(n);
      result = null;
      break;
    }
    case 'stderr': result = stderrText; break;
    case 'sleep': await sleep(step.ms ?? 0); result = null; break;
    default: throw new Error(`unknown op ${step.op}`);
  }
  return step.progress ? { result, progress } : { result };
}

let i = 0;
async function run(step) {
  const n = i++;
  try {
    await out({ i: n, op: step.op, ok: true, ...(await runStep(step)) });
  } catch (e) {
    await out({ i: n, op: step.op, ok: false, error: errorJson(e) });
  }
}

try {
  await client.connect(transport, { timeout });
} catch (e) {
  await out({ op: 'connect', ok: false, error: errorJson(e) });
  await close();
  process.exit(0);
}
const capabilities = client.getServerCapabilities() ?? {};
let toolsPrimed = false;
let primeError = null;
if (script.prime_tools !== false && capabilities.tools) {
  try {
    // Compiles every outputSchema with the SDK's Ajv: callTool then validates against it.
    let cursor;
    do {
      const page = await client.listTools(cursor ? { cursor } : undefined, { timeout });
      cursor = page.nextCursor;
    } while (cursor);
    toolsPrimed = true;
  } catch (e) {
    primeError = errorJson(e);
  }
}
await out({
  op: 'connect', ok: true,
  serverInfo: client.getServerVersion() ?? null,
  capabilities,
  protocolVersion,
  instructions: client.getInstructions?.() ?? null,
  tools_primed: toolsPrimed,
  prime_error: primeError,
  sdk: {
    version: sdkPackage.version,
    latest_protocol_version: types.LATEST_PROTOCOL_VERSION,
    supported_protocol_versions: types.SUPPORTED_PROTOCOL_VERSIONS,
  },
});

for (const step of script.steps ?? []) await run(step);
if (script.interactive) {
  for (let line = await nextLine(); line !== null; line = await nextLine()) {
    let step;
    try {
      step = JSON.parse(line);
    } catch (e) {
      await out({ i: i++, op: null, ok: false, error: errorJson(e) });
      continue;
    }
    await run(step);
  }
}
lines.close();
await close();
process.exit(0);
