// Container health probe: `node deploy/healthcheck.mjs [/healthz|/readyz]` exits 0 when the local server
// answers 2xx on that path. The slim image has no curl or wget, and plain JS starts fast enough to run often.
import http from 'node:http';

const path = process.argv[2] ?? '/healthz';
const port = Number(process.env.PORT ?? 3000);
const timeoutMs = Number(process.env.HEALTHCHECK_TIMEOUT_MS ?? 2500);

if (!path.startsWith('/') || !Number.isInteger(port) || port < 1 || port > 65535) {
  console.error(`healthcheck: bad arguments (path "${path}", PORT "${process.env.PORT ?? ''}")`);
  process.exit(2);
}

const request = http.get({ host: '127.0.0.1', port, path, timeout: timeoutMs }, (response) => {
  response.resume();
  const ok = response.statusCode >= 200 && response.statusCode < 300;
  if (!ok) console.error(`healthcheck: ${path} answered ${response.statusCode}`);
  process.exit(ok ? 0 : 1);
});
request.on('timeout', () => {
  console.error(`healthcheck: ${path} did not answer within ${timeoutMs} ms`);
  request.destroy();
  process.exit(1);
});
request.on('error', (error) => {
  console.error(`healthcheck: ${path} failed: ${error.message}`);
  process.exit(1);
});
