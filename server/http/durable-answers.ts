// On the embedded database with durable commits (issue 52), a commit returns before it is on the disk, so that the
// commits of concurrent requests share one flush (db/embedded-flush.mjs). Here every answer's first bytes wait for
// that flush: the barrier asked for when the answer would leave covers every commit answered by the database so far,
// the request's own among them. An answer that only read waits too when another request's commit is still being
// flushed: what it shows could otherwise be lost with the power after the caller saw it. Nothing written since the
// last flush: the answer goes at once.
import type { RequestHandler, Response } from "express";

const HELD = new WeakSet<Response>();

/** `durable` resolves once the commits answered so far are on the disk (DatabaseHandle.durable). */
export function answersWhenDurable(durable: () => Promise<void>): RequestHandler {
  return (_req, res, next) => {
    // Held already: the API's entry (api-entry.ts) holds its answers before the app's layers see them.
    if (!HELD.has(res)) {
      HELD.add(res);
      holdUntilDurable(res, durable);
    }
    next();
  };
}

function holdUntilDurable(res: Response, durable: () => Promise<void>) {
  const write = res.write.bind(res);
  const end = res.end.bind(res);
  let held: Promise<void> | undefined;
  const restore = () => {
    res.write = write;
    res.end = end;
  };
  // The first bytes ask for the barrier; what is written meanwhile follows in order, then the answer writes directly.
  const hold = () =>
    (held ??= durable().then(restore, (err: Error) => {
      restore();
      // Not answered: the caller cannot tell the commit happened, as with a connection lost before the answer.
      res.destroy(err);
      throw err;
    }));
  res.write = ((...args: Parameters<typeof write>) => {
    hold().then(
      () => write(...args),
      () => {},
    );
    return true;
  }) as Response["write"];
  res.end = ((...args: Parameters<typeof end>) => {
    hold().then(
      () => end(...args),
      () => {},
    );
    return res;
  }) as Response["end"];
}
