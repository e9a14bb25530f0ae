// Generated recipe roots for benchmarks: realistic, varied recipes (JSON and Markdown, typed args).
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export function recipeText(i: number): { name: string; text: string } {
  switch (i % 4) {
    case 0:
      return {
        name: `tool_${i}.json`,
        text: JSON.stringify(
          { description: `Transcribe audio ${i}`, template: `~/bin/transcribe {file:path} {lang=ru} {model:string} --n ${i}` },
          null,
          2,
        ),
      };
    case 1:
      return {
        name: `tool_${i}.json`,
        text: JSON.stringify(
          {
            description: `Check tool ${i}`,
            args: ["file:path", "request_timeout:int", "speed:number", "dry_run:bool", "mode:enum(check,fix)"],
            defaults: { request_timeout: "60000", speed: "1.5", dry_run: "true", mode: "check" },
            template: `tool --file {file} --timeout {request_timeout} --speed {speed} --dry-run {dry_run} --mode {mode} --id ${i}`,
          },
          null,
          2,
        ),
      };
    case 2:
      return {
        name: `tool_${i}.json`,
        text: JSON.stringify(
          { description: `Pipeline ${i}`, template: ["./prepare {file}", { timeout: 300000, template: "./convert {file} {out=out.ogg}" }] },
          null,
          2,
        ),
      };
    default:
      return {
        name: `tool_${i}.md`,
        text: `---\ndescription: Markdown tool ${i}\nargs: file:path\n---\n\nCounts words.\n\n\`\`\`template\nwc -w {file} --id ${i}\n\`\`\`\n`,
      };
  }
}

/** Writes `count` recipes into `<agentDir>/recipes` and returns the agent dir. */
export function generateAgent(baseDir: string, count: number): string {
  const agentDir = join(baseDir, `agent-${count}`);
  rmSync(agentDir, { recursive: true, force: true });
  const root = join(agentDir, "recipes");
  mkdirSync(root, { recursive: true });
  for (let i = 0; i < count; i++) {
    const { name, text } = recipeText(i);
    writeFileSync(join(root, name), text);
  }
  return agentDir;
}
