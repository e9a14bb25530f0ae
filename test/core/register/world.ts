// A recipe root held in a Map, with register_tool's plans applied to it as the runtime would.
import type { SnapshotFile } from "../../../core/model.js";
import { planRegister } from "../../../core/register/plan-register.js";
import type { RegisterFacts, RegisterPlan } from "../../../core/register/register-plan.js";
import { success, type CommandResult } from "../../../core/result.js";

export const AGENT = "/home/u/.pi/agent";
export const ROOT = `${AGENT}/recipes`;
export const DRAFTS = `${ROOT}/drafts`;

const enc = new TextEncoder();

export interface World {
  readonly files: Map<string, string>;
  readonly facts: RegisterFacts;
  plan(params: Record<string, unknown>): RegisterPlan;
  /** plans and applies; a listing answers "list" */
  run(params: Record<string, unknown>): CommandResult | "list";
  read(name: string): unknown;
}

export function world(initial: Record<string, string | object> = {}, cwd = "/proj"): World {
  const files = new Map<string, string>();
  for (const [path, body] of Object.entries(initial)) files.set(path, typeof body === "string" ? body : JSON.stringify(body));
  const readFile = (path: string): SnapshotFile | undefined => {
    const text = files.get(path);
    if (text === undefined) return undefined;
    const bytes = enc.encode(text);
    return { path, size: bytes.length, mtimeMs: 1, birthtimeMs: 1, bytes };
  };
  const facts: RegisterFacts = { readFile, agentDir: AGENT, home: "/home/u", cwd, userRoot: ROOT, draftRoot: DRAFTS };
  const plan = (params: Record<string, unknown>): RegisterPlan => planRegister(params, facts);
  return {
    files,
    facts,
    plan,
    run(params) {
      const p = plan(params);
      switch (p.kind) {
        case "list":
          return "list";
        case "answer":
          return p.result;
        case "write":
          files.set(p.path, p.content);
          return success(p.text, p.details);
        case "delete":
          for (const path of p.paths) files.delete(path);
          return success(p.text, p.details);
      }
    },
    read: (name) => {
      const text = files.get(`${ROOT}/${name}`);
      return text === undefined ? undefined : (JSON.parse(text) as unknown);
    },
  };
}
