// The embedded database on a thread of its own (embedded-thread.ts starts it): PGlite's WebAssembly runs here, so
// the request thread goes on with other requests while a statement runs. Plain JavaScript, so that node starts it
// as it is, from the sources (tests) as from the bundle (npm start). Messages: { id, exchange: Uint8Array } runs
// frontend protocol messages and answers the backend's bytes; { id, dump: true } answers the data directory as a
// gzipped tar; { id, close: true } closes the database.
import { Blob } from "node:buffer";
import { parentPort, workerData } from "node:worker_threads";
import { PGlite } from "@electric-sql/pglite";
// Extensions the migrations create; PostgreSQL has them in contrib.
import { cube } from "@electric-sql/pglite/contrib/cube";

/** An error as plain data (an Error's own fields do not survive postMessage); errno names the file system's fault. */
const plain = (err) => ({ message: err?.message ?? String(err), code: err?.code, errno: err?.errno });

const { dir, startParams, loadDataDir } = workerData;
let db;
try {
  db = await PGlite.create(dir, {
    extensions: { cube },
    startParams: [...PGlite.defaultStartParams, ...startParams],
    ...(loadDataDir && { loadDataDir: new Blob([loadDataDir]) }),
  });
  parentPort.postMessage({ ready: true });
} catch (err) {
  parentPort.postMessage({ failed: plain(err) });
}

parentPort.on("message", async ({ id, exchange, dump, close }) => {
  try {
    if (exchange) {
      // A copy: the answer may be a view of the WebAssembly memory, which must not be handed over.
      const out = (await db.execProtocolRaw(exchange)).slice();
      parentPort.postMessage({ id, out }, [out.buffer]);
    } else if (dump) {
      const out = new Uint8Array(await (await db.dumpDataDir("gzip")).arrayBuffer());
      parentPort.postMessage({ id, out }, [out.buffer]);
    } else if (close) {
      await db.close();
      parentPort.postMessage({ id });
    }
  } catch (err) {
    parentPort.postMessage({ id, error: plain(err) });
  }
});
