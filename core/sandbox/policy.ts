// The `sandbox` recipe field: what a recipe's commands may touch, as a plain value. Core only
// describes the policy; the process adapter (adapters/process/bwrap.ts) turns it into the
// operating system's own confinement, and a recipe that asks for confinement never runs without
// it. docs/sandbox.md describes the field and the choices made here.
import * as E from "fp-ts/lib/Either.js";
import { pipe } from "fp-ts/lib/function.js";
import type { TemplateFailure } from "../template/failure.js";
import { invalidTemplate } from "../template/failure.js";
import { compileToken } from "../template/compile.js";
import { resolvePath, type Place } from "../template/invocation.js";
import { substituteText, type Scope } from "../template/substitute.js";

import type { SandboxField } from "./field.js";

export { isSandboxField, SANDBOX_EXPECTED, type SandboxField, type SandboxSpec } from "./field.js";

/** The policy a recipe declares, placeholders still in its paths. */
export interface SandboxPolicy {
  readonly network: boolean;
  readonly write: readonly string[];
  readonly readDeny: readonly string[];
}

/** `PI_RECIPES_SANDBOX`: `on` confines every tool that does not say `sandbox: false`. */
export type SandboxMode = "on" | "off";

/** `PI_RECIPES_SANDBOX` of an environment: unset, empty or `off` is off; anything else is on (a
 *  typo must not turn confinement off). */
export function sandboxModeOf(env: Readonly<Record<string, string | undefined>>): SandboxMode {
  const v = (env["PI_RECIPES_SANDBOX"] ?? "").trim().toLowerCase();
  return v === "" || v === "off" ? "off" : "on";
}

/** `sandbox: true`, and what an object leaves out: no network, writes under the working
 * directory only (and the private /tmp every confined run gets). */
export const DEFAULT_POLICY: SandboxPolicy = { network: false, write: ["."], readDeny: [] };

/** The policy a call of a recipe with this field runs under; undefined: unconfined. */
export function declaredPolicy(field: SandboxField | undefined, mode: SandboxMode): SandboxPolicy | undefined {
  if (field === false) return undefined;
  if (field === undefined) return mode === "on" ? DEFAULT_POLICY : undefined;
  if (field === true) return DEFAULT_POLICY;
  return {
    network: field.network ?? DEFAULT_POLICY.network,
    write: field.write ?? DEFAULT_POLICY.write,
    readDeny: field.read_deny ?? DEFAULT_POLICY.readDeny,
  };
}

/** A path of the policy, resolved for one call. */
export interface SandboxPath {
  /** absolute and normalized */
  readonly path: string;
  /** written by the recipe with a trailing `/`: a folder (created as one when missing) */
  readonly folder: boolean;
  /** the path was written with a placeholder, so the call's values chose it (a caller may not
   *  widen such a grant: adapters/process/bwrap.ts) */
  readonly fromValue: boolean;
  /** written relative to the working directory without a placeholder (`.`, `build/`): the recipe
   *  means a place in the project it runs in */
  readonly fromCwd?: boolean;
  /** the folder the recipe's own text fixes before its first placeholder (`build/{name}/`: the
   *  working directory's `build`), absolute and normalized; a value may not lead out of it (`..`) */
  readonly under?: string;
}

/** The folder a path text names before its first placeholder: `build/` of `build/{name}/`,
 *  `~/out/` of `~/out/{file}`; undefined when the placeholder comes first (`{out}`). */
function fixedFolder(text: string, place: Place): string | undefined {
  const brace = text.indexOf("{");
  const slash = brace < 0 ? -1 : text.lastIndexOf("/", brace);
  return slash < 0 ? undefined : expandSandboxPath(text.slice(0, slash + 1), place);
}

/** The policy of one call: placeholders resolved from the call's values, paths absolute. */
export interface ResolvedSandbox {
  readonly network: boolean;
  readonly write: readonly SandboxPath[];
  readonly readDeny: readonly SandboxPath[];
}

/** `~` and `~/x` from home, relative paths from the working directory. */
export function expandSandboxPath(text: string, place: Place): string {
  if (fromHome(text)) return text === "~" ? place.home : resolvePath(place.home, text.slice(2));
  return resolvePath(place.cwd, text);
}

const fromHome = (text: string): boolean => text === "~" || text.startsWith("~/");

/** A path text expandSandboxPath resolves from the working directory (neither absolute nor from
 *  home). */
const fromWorkingDirectory = (text: string): boolean => !fromHome(text) && !text.startsWith("/");

function resolvePaths(texts: readonly string[], scope: Scope, place: Place, label: string): E.Either<TemplateFailure, readonly SandboxPath[]> {
  return pipe(
    texts,
    E.traverseArray((text) =>
      pipe(
        substituteText(text, scope, label),
        E.filterOrElse((path) => !path.includes("\0"), () => invalidTemplate(`${label}: a path may not hold a NUL byte`)),
        // a folder is what the recipe wrote as one (`{dir}/`): a value ending in `/` does not make
        // a grant of a file (`{out}`) a grant of a folder
        E.map((path) => {
          const fromValue = typeof compileToken(text) !== "string";
          const under = fromValue ? fixedFolder(text, place) : undefined;
          const fromCwd = !fromValue && fromWorkingDirectory(text);
          return { path, folder: text.endsWith("/"), fromValue, ...(under === undefined ? {} : { under }), ...(fromCwd ? { fromCwd } : {}) };
        }),
      ),
    ),
    // an optional value left empty allows (or hides) nothing
    E.map((paths) => paths.filter(({ path }) => path.trim() !== "").map((p) => ({ ...p, path: expandSandboxPath(p.path, place) }))),
  );
}

/** Resolves the policy's paths for one call (the call's typed values fill the placeholders). */
export const resolveSandbox = (policy: SandboxPolicy, scope: Scope, place: Place): E.Either<TemplateFailure, ResolvedSandbox> =>
  pipe(
    E.Do,
    E.apS("write", resolvePaths(policy.write, scope, place, "sandbox.write")),
    E.apS("readDeny", resolvePaths(policy.readDeny, scope, place, "sandbox.read_deny")),
    E.map(({ write, readDeny }) => ({ network: policy.network, write, readDeny })),
  );

/** The policy as view tokens: `network=off write=.,{out} read_deny=~/.ssh` (`write=` empty: nothing). */
export function describePolicy(policy: SandboxPolicy): string {
  const parts = [`network=${policy.network ? "on" : "off"}`, `write=${policy.write.join(",")}`];
  if (policy.readDeny.length > 0) parts.push(`read_deny=${policy.readDeny.join(",")}`);
  return parts.join(" ");
}
