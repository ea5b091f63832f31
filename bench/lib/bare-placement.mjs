// The orders benchmark's baseline: a placement as bare as it can be on the same machine. Plain
// node:http, one pg pool of the store's size (10), and one call per order to a PL/pgSQL function
// (bare-placement.sql) that locks the customer, applies the duplicate rule, takes the stock and
// writes the order, its line and an outbox row, in one round trip and one transaction. No
// framework, sessions, pricing, shipping, tax, hold windows, rate limit or email: what is left
// between it and the store is what those cost.
import http from "node:http";
import pg from "pg";

const pool = new pg.Pool({ connectionString: process.argv[2], max: 10 });
const server = http.createServer((req, res) => {
  const chunks = [];
  req.on("data", (c) => chunks.push(c));
  req.on("end", async () => {
    try {
      const body = JSON.parse(Buffer.concat(chunks).toString());
      // The cookie carries the customer's id: the baseline has no sessions.
      const customer = /customer=([0-9a-f-]{36})/.exec(req.headers.cookie ?? "")?.[1];
      const r = await pool.query({
        name: "bare_place",
        text: "select bare_place($1, $2, $3, $4, $5) as r",
        values: [customer, body.productId, body.orderQty, body.phonrNo, body.Address],
      });
      const out = r.rows[0].r;
      const text = JSON.stringify(out);
      res.writeHead(out.error ? 422 : 201, {
        "content-type": "application/json",
        "content-length": Buffer.byteLength(text),
      });
      res.end(text);
    } catch (err) {
      res.writeHead(500).end(String(err));
    }
  });
});
server.keepAliveTimeout = 65_000;
server.listen(0, "127.0.0.1", () => console.log(`http://127.0.0.1:${server.address().port}`));
process.on("SIGTERM", () => server.close(() => pool.end().then(() => process.exit(0))));
