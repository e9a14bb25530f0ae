// Temps a writer killed before its rename left beside the file it was writing: a temp of the
// cache files under `<recipe root>/.cache` is named `.<file>.<pid>-<n>.tmp` (see atomicTempName),
// and may be as large as the file (megabytes at 10,000 recipes). The next writer of the same file
// removes those whose process is gone; a live writer's temp is left alone.
import * as nodeFs from "node:fs";
import { join } from "node:path";
import { nodeProcessProbe } from "../lock/owner.js";
import { atomicTempWriter } from "./FileSystem.js";

/** Removes the temps of `base` in `dir` whose writer's process no longer exists. Never throws. */
export function removeDeadTemps(dir: string, base: string, fs: Pick<typeof nodeFs, "readdirSync" | "unlinkSync"> = nodeFs): void {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const temp = atomicTempWriter(name);
    // only a writer provably gone: a doubt (another user's process, an unknown answer) keeps it
    if (temp === undefined || temp.base !== base || nodeProcessProbe.signalZero(temp.pid) !== "gone") continue;
    try {
      fs.unlinkSync(join(dir, name));
    } catch {
      // gone already
    }
  }
}
