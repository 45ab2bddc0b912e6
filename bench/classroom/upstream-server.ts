// The stand-in cloud host of the classroom benchmark: a bare Node http server answering one audio file with
// Range support (200 or 206), as a download host does. Prints {"url","pid"} and stops on SIGTERM.
import { createServer } from 'node:http';
import { serveForBench } from '../lib/child-processes';
import { audioFile, byteRange } from './audio-file';

const bytes = Number(process.argv[2] ?? 10 * 1024 * 1024);
const audio = audioFile(bytes);

const server = createServer((req, res) => {
  const range = byteRange(req.headers.range, audio.length);
  const headers = { 'content-type': 'audio/mpeg', 'accept-ranges': 'bytes', etag: '"bench-v1"' };
  if (range === null) {
    res.writeHead(200, { ...headers, 'content-length': audio.length });
    res.end(audio);
    return;
  }
  const [start, end] = range;
  res.writeHead(206, {
    ...headers,
    'content-length': end - start + 1,
    'content-range': `bytes ${start}-${end}/${audio.length}`,
  });
  res.end(audio.subarray(start, end + 1));
});
server.keepAliveTimeout = 60_000;
serveForBench(server);
