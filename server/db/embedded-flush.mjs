// Durable commits on the embedded database, grouped (issue 52): PGlite's file system for Node (Emscripten's NODEFS)
// has no fsync at all, so PostgreSQL's every flush returned at once and an answered commit could be lost with the
// machine's power. Here the flushes PostgreSQL asks for really happen, but the write-ahead log's are put off: a
// commit's own flush of pg_wal only records that the file must be flushed, and the commit goes on without waiting
// for the disk. Before an answer that may show a commit leaves, the request thread asks for a flush barrier
// (`barrier(gen)`): one flush, started after the request's commits, fsyncs every log file and directory recorded
// since the last one, once for every commit made meanwhile; commits that arrive during it join the next one.
//
// Why that is enough:
// - A commit is durable once its log records are: PostgreSQL's recovery replays them. The records reach the file
//   (pwrite) before the commit's flush is asked for, and that flush bumps `gen`; the thread's answer to the exchange
//   carries `gen` after it. A barrier for that `gen` starts a flush (on this thread, between exchanges) that opens
//   every recorded file before it answers, and answers only once each fsync has returned: a flush that began after
//   the commit's last write. A rename moves the record to the new name; the open file descriptor keeps the inode.
// - Everything else PostgreSQL flushes (data files at a checkpoint, pg_control, the other directories) is flushed
//   at once, as it asks, but first the log put off so far: PostgreSQL writes a data page only after the log that
//   describes it, and pg_control only after the checkpoint's record, and counts on that order after a crash. For
//   the same reason a write to any file outside pg_wal first flushes the log put off so far (a page evicted from the
//   buffers while its log waits for a barrier), unless it writes only zeros (a relation extended by empty pages).
//   A commit writes only the log, so this costs at checkpoints and evictions, not per commit.
// - PostgreSQL runs with fsync on and wal_sync_method=fsync (embedded-open.ts), so that it asks for these flushes
//   by fsync (Emscripten turns fdatasync into nothing and cannot open with O_DSYNC through NODEFS).
import { close, closeSync, fsync, fsyncSync, openSync } from "node:fs";
import path from "node:path";

/**
 * Installs the flushing on the Emscripten module's NODEFS for the data directory `root` (call it in PGlite's
 * preRun); returns the barrier and the log's generation.
 */
export function durableFiles(mod, root) {
  const nodefs = mod.NODEFS;
  const wal = path.join(root, "pg_wal");
  const isLog = (p) => p === wal || p.startsWith(wal + path.sep);
  /** Log files and directories written or changed since the last flush started. */
  const putOff = new Set();
  /** Descriptors the flush under way is syncing (their records left `putOff` when it started). */
  let inFlight = [];
  let flushing = false;
  let gen = 0;
  let flushedGen = 0;
  /** Barriers waiting: resolved once `flushedGen` reaches their target. */
  let waiting = [];
  /** A flush that failed: the disk's state is unknown, nothing more is answered as durable. */
  let failed;

  const putOffLog = (p) => {
    putOff.add(p);
    gen++;
  };
  /** Flushes now, on this thread, what was put off (and what the flush under way syncs). */
  const flushPutOffNow = () => {
    if (failed) throw failed;
    for (const fd of inFlight) fsyncSync(fd);
    for (const p of putOff) {
      const fd = openExisting(p);
      if (fd === undefined) continue;
      try {
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
    }
    putOff.clear();
  };

  const { write } = nodefs.stream_ops;
  nodefs.stream_ops.write = function (stream, buffer, offset, length, ...rest) {
    const p = nodefs.realPath(stream.node);
    // A page of zeros (a relation extended) says nothing the log must precede.
    if (!isLog(p) && (putOff.size || inFlight.length) && !zeros(buffer, offset, length)) flushPutOffNow();
    const n = write.call(this, stream, buffer, offset, length, ...rest);
    if (isLog(p)) putOffLog(p);
    return n;
  };
  // Emscripten's fd_sync calls this for fsync(); NODEFS has none, so every fsync was a no-op.
  nodefs.stream_ops.fsync = function (stream) {
    const p = nodefs.realPath(stream.node);
    if (isLog(p)) {
      putOffLog(p);
      return 0;
    }
    flushPutOffNow();
    if (stream.nfd !== undefined) fsyncSync(stream.nfd);
    return 0;
  };
  // A created, renamed or removed entry of the log is durable only once its directory is flushed. Elsewhere
  // PostgreSQL flushes the directory itself where it counts (fsync above), or recreates the file from the log.
  const { mknod, rename, unlink, rmdir, symlink } = nodefs.node_ops;
  const changed = (dirNode) => {
    const p = nodefs.realPath(dirNode);
    if (isLog(p)) putOffLog(p);
  };
  nodefs.node_ops.mknod = function (parent, ...rest) {
    const node = mknod.call(this, parent, ...rest);
    changed(parent);
    return node;
  };
  nodefs.node_ops.rename = function (oldNode, newDir, newName) {
    const oldPath = nodefs.realPath(oldNode);
    const oldDir = oldNode.parent;
    rename.call(this, oldNode, newDir, newName);
    const newPath = path.join(nodefs.realPath(newDir), newName);
    if (putOff.delete(oldPath)) putOffLog(newPath);
    else if (isLog(newPath)) putOffLog(newPath);
    changed(oldDir);
    if (newDir !== oldDir) changed(newDir);
  };
  for (const [name, op] of [
    ["unlink", unlink],
    ["rmdir", rmdir],
    ["symlink", symlink],
  ]) {
    nodefs.node_ops[name] = function (parent, entry, ...rest) {
      const result = op.call(this, parent, entry, ...rest);
      putOff.delete(path.join(nodefs.realPath(parent), entry));
      changed(parent);
      return result;
    };
  }

  const flushed = () => {
    const ready = waiting.filter((w) => w.target <= flushedGen);
    waiting = waiting.filter((w) => w.target > flushedGen);
    for (const w of ready) w.resolve(flushedGen);
  };
  const startFlush = () => {
    const target = gen;
    let fds;
    try {
      if (failed) throw failed;
      fds = [];
      for (const p of putOff) {
        const fd = openExisting(p);
        if (fd !== undefined) fds.push(fd);
      }
      putOff.clear();
    } catch (err) {
      fail(err);
      return;
    }
    flushing = true;
    inFlight = fds;
    Promise.all(fds.map((fd) => new Promise((resolve, reject) => fsync(fd, (err) => (err ? reject(err) : resolve())))))
      .then(
        () => {
          flushedGen = Math.max(flushedGen, target);
          flushed();
        },
        (err) => fail(err),
      )
      .finally(() => {
        for (const fd of fds) close(fd, () => {});
        inFlight = [];
        flushing = false;
        if (waiting.length) startFlush();
      });
  };
  const fail = (err) => {
    failed ??= Object.assign(new Error(`the embedded database could not flush its files to the disk: ${err.message}`), {
      code: err.code,
    });
    for (const w of waiting.splice(0)) w.reject(failed);
  };

  return {
    /** How far the log has been written: a barrier for it covers every commit made so far. */
    gen: () => gen,
    /** Resolves once a flush that started after `target` was reached has ended (at once if one has). */
    barrier(target) {
      if (failed) return Promise.reject(failed);
      if (target <= flushedGen) return Promise.resolve(flushedGen);
      return new Promise((resolve, reject) => {
        waiting.push({ target, resolve, reject });
        if (!flushing) startFlush();
      });
    },
  };
}

function zeros(buffer, offset, length) {
  for (let i = offset; i < offset + length; i++) if (buffer[i] !== 0) return false;
  return true;
}

/** A descriptor of `p` for fsync, or undefined when it is gone (removed since: its directory is recorded). */
function openExisting(p) {
  try {
    return openSync(p, "r");
  } catch (err) {
    if (err.code === "ENOENT") return undefined;
    throw err;
  }
}
