// vitest's setupFiles: the process's user and group ids, asked once. memfs (the in-memory file
// system of the crash properties and many tests) asks `process.getuid()` and `getgid()` for every
// file node it makes and every permission check, and each ask is a system call: in the portfolio
// crash property they were 18 of its 38 s of CPU (docs/testing.md). A test process never changes
// its ids, so the first answer is every answer.
const uid = process.getuid?.();
const gid = process.getgid?.();
if (uid !== undefined) process.getuid = (): number => uid;
if (gid !== undefined) process.getgid = (): number => gid;
