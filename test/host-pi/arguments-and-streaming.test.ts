// Argument schemas, strict arguments and streamed output as a model meets them in a real Pi session (SDK, scripted
// model): the tool's schema carries the recipe's own argument description and typed defaults,
// and a mistyped argument name is refused (with a did-you-mean where the registry sees it).
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fauxAssistantMessage, fauxToolCall, type FauxResponseStep } from "@mariozechner/pi-ai";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";
import { call, echoLast, makeSandbox, startPi, type PiRun, type PiSandbox } from "./sdk-harness.js";

let sandbox: PiSandbox;
let pi: PiRun | undefined;
let savedDir: string | undefined;

beforeEach(() => {
  sandbox = makeSandbox();
  savedDir = process.env["PI_CODING_AGENT_DIR"];
  process.env["PI_CODING_AGENT_DIR"] = sandbox.agentDir;
});

afterEach(async () => {
  await pi?.close();
  pi = undefined;
  if (savedDir === undefined) delete process.env["PI_CODING_AGENT_DIR"];
  else process.env["PI_CODING_AGENT_DIR"] = savedDir;
  sandbox.cleanup();
});

describe("argument schemas in a Pi session", () => {
  test("the offered schema has the argument's description and default; a typo is refused with a suggestion", async () => {
    writeFileSync(
      join(sandbox.recipeRoot, "count.json"),
      JSON.stringify({
        description: "Count lines",
        args: ["file:path", "limit:int"],
        arg_descriptions: { file: "The file whose lines to count" },
        defaults: { limit: "100" },
        template: "echo {file} {limit}",
      }),
    );
    let offered: unknown;
    const callWithTypo: FauxResponseStep = (context) => {
      offered = (context.tools ?? []).find((t) => t.name === "count")?.parameters;
      return fauxAssistantMessage([fauxToolCall("count", { fiel: "a.txt" })], { stopReason: "toolUse" });
    };
    const viaMessage = fauxAssistantMessage([fauxToolCall("message", { to: "tool:count", type: "call", body: { fiel: "a.txt" } })], { stopReason: "toolUse" });
    pi = await startPi({ sandbox, responses: [callWithTypo, viaMessage, echoLast("")] });
    await pi.session.prompt("count");
    expect(offered).toMatchObject({
      properties: {
        file: { description: "The file whose lines to count", type: "string" },
        limit: { type: "integer", default: 100 },
      },
    });
    // Pi checks the schema (additionalProperties: false) before the tool runs
    expect(pi.outcomes[0]).toMatchObject({ tool: "count", isError: true, text: expect.stringContaining("fiel") });
    // arguments that reach the registry another way get the did-you-mean and the usage hint
    expect(pi.outcomes[1]).toMatchObject({ tool: "message", isError: true });
    expect(pi.outcomes[1]!.text).toContain('Unknown argument "fiel". Did you mean "file"?');
    expect(pi.outcomes[1]!.text).toContain('"limit": 100');
  }, 60_000);
});

describe("long work in a Pi session", () => {
  test("a recipe tool streams its output lines as tool updates before it ends", async () => {
    const gate = join(sandbox.root, "go");
    const script = join(sandbox.root, "lines.sh");
    writeFileSync(script, `echo first line\nwhile [ ! -e '${gate}' ]; do sleep 0.05; done\necho second line\n`);
    writeFileSync(join(sandbox.recipeRoot, "lines.json"), JSON.stringify({ description: "Lines with a wait", template: `sh ${script}` }));
    const updates: string[] = [];
    // the command waits for this gate, so it can end only if an update showed its first line
    const watcher = (api: ExtensionAPI): void => {
      api.on("tool_execution_update", (e) => {
        const text = ((e.partialResult as { content?: { text?: string }[] }).content ?? []).map((c) => c.text ?? "").join("");
        updates.push(text);
        if (text.includes("first line")) writeFileSync(gate, "");
      });
    };
    pi = await startPi({ sandbox, responses: [call("lines", {}), echoLast("")], extensionFactories: [watcher] });
    await pi.session.prompt("go");
    expect(updates[0]).toBe("first line");
    expect(pi.outcomes[0]).toMatchObject({ tool: "lines", isError: false, text: "first line\nsecond line" });
  }, 60_000);
});
