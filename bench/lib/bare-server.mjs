// The baseline: plain node:http answering, from memory, the exact bytes our server answered.
import { readFileSync } from "node:fs";
import http from "node:http";

const responses = new Map(
  Object.entries(JSON.parse(readFileSync(process.argv[2], "utf8"))).map(([p, r]) => [
    p,
    { headers: r.headers, body: Buffer.from(r.body) },
  ]),
);
const server = http.createServer((req, res) => {
  const r = responses.get(req.url);
  if (!r) {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(200, { ...r.headers, "content-length": r.body.length });
  res.end(r.body);
});
server.keepAliveTimeout = 65_000;
server.listen(0, "127.0.0.1", () => console.log(`http://127.0.0.1:${server.address().port}`));
process.on("SIGTERM", () => server.close(() => process.exit(0)));
