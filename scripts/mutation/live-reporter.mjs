// A Stryker reporter that writes each mutant no test noticed to .stryker-tmp/survivors.log the
// moment it is known (Stryker's own reports come only at the end of a run that may take an hour),
// so the gaps can be looked at while the run goes on. One line per mutant:
// `file:line:column Mutator (Survived|NoCoverage[, static]): replacement`. A static one runs while a
// module loads: with `--ignoreStatic` it was never really switched on, and `npm run mutate` tests
// it again in its static run, so it is no gap yet.
import { appendFileSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname, relative } from "node:path";
import { PluginKind, declareClassPlugin } from "@stryker-mutator/api/plugin";

const LOG = ".stryker-tmp/survivors.log";

class LiveSurvivors {
  onDryRunCompleted() {
    mkdirSync(dirname(LOG), { recursive: true });
    writeFileSync(LOG, "");
  }

  onMutantTested(m) {
    if (m.status !== "Survived" && m.status !== "NoCoverage") return;
    const at = `${relative(process.cwd(), m.fileName)}:${m.location.start.line}:${m.location.start.column}`;
    const status = m.static === true ? `${m.status}, static` : m.status;
    appendFileSync(LOG, `${at} ${m.mutatorName} (${status}): ${m.replacement.replace(/\s+/g, " ")}\n`);
  }
}

export const strykerPlugins = [declareClassPlugin(PluginKind.Reporter, "live-survivors", LiveSurvivors)];
