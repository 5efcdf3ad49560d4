// The reference for serve's throughput: a bare node:http server on the same machine,
// keep-alive, answering a fixed JSON body (the same bytes serve answers) to any request
// after reading its body. Usage: node bench/bare-server.mjs BODY_FILE → prints "Listening on URL".
import { readFileSync } from 'node:fs';
import http from 'node:http';

const body = readFileSync(process.argv[2] ?? '/dev/null');
const server = http.createServer({ keepAlive: true }, (req, res) => {
  req.on('data', () => {});
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
    res.end(body);
  });
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`Listening on http://127.0.0.1:${server.address().port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
