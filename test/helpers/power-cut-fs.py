#!/usr/bin/python3
"""A file system that loses what was not flushed when the power is cut (issue 52's power-cut test).

    /usr/bin/python3 power-cut-fs.py BACKING MOUNTPOINT

MOUNTPOINT shows BACKING's files (FUSE, Debian's python3-pyfuse3). What it promises:

- BACKING holds exactly what would survive a power cut: what was flushed. Everything else lives in this process's
  memory, as in a machine's page cache:
  - a file's writes and truncations, until an fsync or fdatasync of that file (any descriptor of it) writes them
    to BACKING;
  - a directory's changes (a file or directory created, renamed into or out of it, removed), until an fsync of that
    directory: they are made in BACKING at once (so that reads see them), each with how to undo it; a rename keeps
    only when both directories were flushed after it. A removed entry waits in BACKING.removed until then.
- SIGUSR1 cuts the power, at once: every unflushed write is dropped, every unflushed directory change undone (the
  last first), and from then on every operation fails with EIO, as a machine without power answers nothing. Stop
  the process (SIGTERM, or fusermount3 -u) and mount BACKING again to "power on": it then holds the flushed state.
  "cut" is printed once done.
- SIGUSR2 makes every later fsync and fdatasync fail with EIO (a failing disk); "fsync fails" is printed.
- Closing a file flushes nothing, as on a real file system. Flushed data goes to BACKING without an fsync of its
  own: the host is not the machine whose power is cut.
- Not offered: hard links, symbolic links, device files, extended attributes (ENOSYS), rename flags (EINVAL).

Like LazyFS (github.com/dsrhaslab/lazyfs: a page cache of its own, "clear-cache" drops what was not synced), but
small, with directory changes lost too, and built only on what Debian offers.
"""

import errno
import os
import shutil
import signal
import stat
import sys

import pyfuse3
import trio

PAGE = 4096


def fail(code):
    return pyfuse3.FUSEError(code)


class Unflushed:
    """A file's writes and truncations since it was last flushed: whole pages over the backing file."""

    def __init__(self, size):
        self.size = size
        # Bytes of the backing file below `kept` are still the file's; above it, what no page holds reads as zeros.
        self.kept = size
        self.pages = {}

    def _page(self, fd, n):
        if n not in self.pages:
            start = n * PAGE
            data = os.pread(fd, min(PAGE, self.kept - start), start) if start < self.kept else b""
            self.pages[n] = bytearray(data.ljust(PAGE, b"\0"))
        return self.pages[n]

    def write(self, fd, off, buf):
        done = 0
        while done < len(buf):
            n, at = divmod(off + done, PAGE)
            chunk = min(PAGE - at, len(buf) - done)
            self._page(fd, n)[at : at + chunk] = buf[done : done + chunk]
            done += chunk
        self.size = max(self.size, off + len(buf))

    def read(self, fd, off, size):
        end = min(off + size, self.size)
        out = bytearray()
        while off < end:
            n, at = divmod(off, PAGE)
            chunk = min(PAGE - at, end - off)
            if n in self.pages:
                out += self.pages[n][at : at + chunk]
            elif off >= self.kept:
                out += bytes(chunk)
            else:
                out += os.pread(fd, min(chunk, self.kept - off), off).ljust(chunk, b"\0")
            off += chunk
        return bytes(out)

    def truncate(self, size):
        self.size = size
        self.kept = min(self.kept, size)
        for n in [n for n in self.pages if n * PAGE >= size]:
            del self.pages[n]
        n, at = divmod(size, PAGE)
        if at and n in self.pages:
            self.pages[n][at:] = bytes(PAGE - at)

    def flush(self, fd):
        os.ftruncate(fd, self.kept)
        for n, page in sorted(self.pages.items()):
            os.pwrite(fd, page[: max(0, min(PAGE, self.size - n * PAGE))], n * PAGE)
        os.ftruncate(fd, self.size)


class Change:
    """A directory change made in BACKING but not flushed: kept once each of `dirs` was flushed, else undone."""

    def __init__(self, dirs, undo, keep=lambda: None):
        self.dirs = set(dirs)
        self.undo = undo
        self.keep = keep


class PowerCutFs(pyfuse3.Operations):
    def __init__(self, backing):
        super().__init__()
        self.backing = os.path.abspath(backing)
        self.removed = self.backing + ".removed"
        # Powering on: what was removed without its directory being flushed is gone with the cut that kept it.
        shutil.rmtree(self.removed, ignore_errors=True)
        os.mkdir(self.removed)
        self.root_ino = os.lstat(self.backing).st_ino
        self.paths = {pyfuse3.ROOT_INODE: self.backing}
        self.unflushed = {}  # inode -> Unflushed
        self.changes = []  # Change, oldest first
        self.handles = {}  # fh -> (inode, host descriptor)
        self.next_fh = 1
        self.next_removed = 1
        self.powered = True
        self.fsync_fails = False

    # Inodes are the backing files' own, with the root's swapped for FUSE's root number.
    def _ino(self, host_ino):
        if host_ino == self.root_ino:
            return pyfuse3.ROOT_INODE
        return self.root_ino if host_ino == pyfuse3.ROOT_INODE else host_ino

    def _alive(self):
        if not self.powered:
            raise fail(errno.EIO)

    def _attrs(self, path, ino=None):
        st = os.lstat(path)
        ino = ino if ino is not None else self._ino(st.st_ino)
        self.paths[ino] = path
        attrs = pyfuse3.EntryAttributes()
        for name in ("st_mode", "st_nlink", "st_uid", "st_gid", "st_rdev", "st_size", "st_blksize", "st_blocks"):
            setattr(attrs, name, getattr(st, name))
        attrs.st_atime_ns, attrs.st_mtime_ns, attrs.st_ctime_ns = st.st_atime_ns, st.st_mtime_ns, st.st_ctime_ns
        attrs.st_ino = ino
        if ino in self.unflushed:
            attrs.st_size = self.unflushed[ino].size
        # Every change passes through the kernel, which keeps its caches right until the cut (then all is EIO).
        attrs.entry_timeout = attrs.attr_timeout = 10
        return attrs

    def _child(self, parent, name):
        return os.path.join(self.paths[parent], os.fsdecode(name))

    def _moved(self, old, new):
        for ino, p in list(self.paths.items()):
            if p == old or p.startswith(old + "/"):
                self.paths[ino] = new + p[len(old) :]

    def _set_aside(self, path):
        """Moves `path` into BACKING.removed; returns where it went."""
        aside = os.path.join(self.removed, str(self.next_removed))
        self.next_removed += 1
        os.rename(path, aside)
        self._moved(path, aside)
        return aside

    def _put_back(self, aside, path):
        os.rename(aside, path)
        self._moved(aside, path)

    def _change(self, dirs, undo, keep=lambda: None):
        self.changes.append(Change(dirs, undo, keep))

    async def lookup(self, parent, name, ctx=None):
        self._alive()
        try:
            return self._attrs(self._child(parent, name))
        except FileNotFoundError:
            raise fail(errno.ENOENT)

    async def getattr(self, inode, ctx=None):
        self._alive()
        return self._attrs(self.paths[inode], inode)

    async def setattr(self, inode, attr, fields, fh, ctx):
        self._alive()
        path = self.paths[inode]
        if fields.update_size:
            self._unflushed(inode, path).truncate(attr.st_size)
        if fields.update_mode:
            os.chmod(path, stat.S_IMODE(attr.st_mode))
        if fields.update_uid or fields.update_gid:
            os.chown(path, attr.st_uid if fields.update_uid else -1, attr.st_gid if fields.update_gid else -1)
        if fields.update_atime or fields.update_mtime:
            st = os.lstat(path)
            os.utime(
                path,
                ns=(
                    attr.st_atime_ns if fields.update_atime else st.st_atime_ns,
                    attr.st_mtime_ns if fields.update_mtime else st.st_mtime_ns,
                ),
            )
        return self._attrs(path, inode)

    def _unflushed(self, inode, path):
        if inode not in self.unflushed:
            self.unflushed[inode] = Unflushed(os.lstat(path).st_size)
        return self.unflushed[inode]

    async def opendir(self, inode, ctx):
        self._alive()
        return inode

    async def readdir(self, inode, start, token):
        self._alive()
        path = self.paths[inode]
        names = sorted(os.listdir(path))
        for i in range(start, len(names)):
            if not pyfuse3.readdir_reply(token, os.fsencode(names[i]), self._attrs(os.path.join(path, names[i])), i + 1):
                break

    async def releasedir(self, fh):
        pass

    async def fsyncdir(self, fh, datasync):
        self._alive()
        if self.fsync_fails:
            raise fail(errno.EIO)
        for change in self.changes:
            change.dirs.discard(fh)
        for change in [c for c in self.changes if not c.dirs]:
            change.keep()
        self.changes = [c for c in self.changes if c.dirs]

    async def mkdir(self, parent, name, mode, ctx):
        self._alive()
        path = self._child(parent, name)
        os.mkdir(path, mode)
        self._change([parent], lambda: shutil.rmtree(path))
        return self._attrs(path)

    async def create(self, parent, name, mode, flags, ctx):
        self._alive()
        path = self._child(parent, name)
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL, mode)
        self._change([parent], lambda: os.unlink(path))
        attrs = self._attrs(path)
        return self._handle(attrs.st_ino, fd), attrs

    async def unlink(self, parent, name, ctx):
        self._alive()
        path = self._child(parent, name)
        if not os.path.lexists(path):
            raise fail(errno.ENOENT)
        aside = self._set_aside(path)
        self._change([parent], lambda: self._put_back(aside, path), lambda: os.unlink(aside))

    async def rmdir(self, parent, name, ctx):
        self._alive()
        path = self._child(parent, name)
        if os.listdir(path):
            raise fail(errno.ENOTEMPTY)
        aside = self._set_aside(path)
        self._change([parent], lambda: self._put_back(aside, path), lambda: os.rmdir(aside))

    async def rename(self, parent_old, name_old, parent_new, name_new, flags, ctx):
        self._alive()
        if flags:
            raise fail(errno.EINVAL)
        old, new = self._child(parent_old, name_old), self._child(parent_new, name_new)
        replaced = self._set_aside(new) if os.path.lexists(new) else None
        os.rename(old, new)
        self._moved(old, new)

        def undo():
            self._put_back(new, old)
            if replaced:
                self._put_back(replaced, new)

        def keep():
            if replaced:
                shutil.rmtree(replaced) if os.path.isdir(replaced) else os.unlink(replaced)

        self._change([parent_old, parent_new], undo, keep)

    def _handle(self, inode, fd):
        fh = self.next_fh
        self.next_fh += 1
        self.handles[fh] = (inode, fd)
        return pyfuse3.FileInfo(fh=fh)

    async def open(self, inode, flags, ctx):
        self._alive()
        path = self.paths[inode]
        try:
            fd = os.open(path, os.O_RDWR)
        except IsADirectoryError:
            fd = os.open(path, os.O_RDONLY)
        if flags & os.O_TRUNC:
            self._unflushed(inode, path).truncate(0)
        return self._handle(inode, fd)

    async def read(self, fh, off, size):
        self._alive()
        inode, fd = self.handles[fh]
        if inode in self.unflushed:
            return self.unflushed[inode].read(fd, off, size)
        return os.pread(fd, size, off)

    async def write(self, fh, off, buf):
        self._alive()
        inode, fd = self.handles[fh]
        if inode not in self.unflushed:
            self.unflushed[inode] = Unflushed(os.fstat(fd).st_size)
        self.unflushed[inode].write(fd, off, buf)
        return len(buf)

    async def fsync(self, fh, datasync):
        self._alive()
        if self.fsync_fails:
            raise fail(errno.EIO)
        inode, fd = self.handles[fh]
        if inode in self.unflushed:
            self.unflushed.pop(inode).flush(fd)

    async def flush(self, fh):
        self._alive()

    async def release(self, fh):
        _, fd = self.handles.pop(fh)
        os.close(fd)

    async def statfs(self, ctx):
        self._alive()
        st = os.statvfs(self.backing)
        out = pyfuse3.StatvfsData()
        for name in ("f_bsize", "f_frsize", "f_blocks", "f_bfree", "f_bavail", "f_files", "f_ffree", "f_favail"):
            setattr(out, name, getattr(st, name))
        out.f_namemax = st.f_namemax
        return out

    def cut(self):
        """The power goes: unflushed writes are dropped, unflushed directory changes undone, nothing answers again."""
        self.powered = False
        self.unflushed.clear()
        for change in reversed(self.changes):
            try:
                change.undo()
            except OSError as err:
                print(f"power-cut-fs: undoing a change: {err}", file=sys.stderr, flush=True)
        self.changes.clear()
        print("cut", flush=True)


async def main(fs):
    async def control():
        with trio.open_signal_receiver(signal.SIGUSR1, signal.SIGUSR2, signal.SIGTERM, signal.SIGINT) as signals:
            async for signum in signals:
                if signum == signal.SIGUSR1:
                    fs.cut()
                elif signum == signal.SIGUSR2:
                    fs.fsync_fails = True
                    print("fsync fails", flush=True)
                else:
                    pyfuse3.terminate()
                    return

    async with trio.open_nursery() as nursery:
        nursery.start_soon(control)
        await pyfuse3.main()
        nursery.cancel_scope.cancel()


if __name__ == "__main__":
    backing, mountpoint = sys.argv[1:3]
    fs = PowerCutFs(backing)
    pyfuse3.init(fs, mountpoint, {"fsname=power-cut-fs", "default_permissions"})
    print("mounted", flush=True)
    try:
        trio.run(main, fs)
    finally:
        pyfuse3.close(unmount=True)
