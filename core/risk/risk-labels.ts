// Advisory risk labels (registry-reference §3.12, lifecycle-reference §15.3): deterministic
// review aids for doctor and triage views, never execution blockers.
import type { Json, RecipeConfig } from "../model.js";
import { leaves } from "../template/graph.js";
import { optionInjectionArgs } from "./option-injection.js";
import {
  hasArg,
  hasFlag,
  isBroadWrite,
  isDestructiveRemove,
  isJsEval,
  isScriptEval,
  leafShape,
  SHELLS,
  type LeafShape,
} from "./leaf-shape.js";

export const RISK_LABEL_ORDER = [
  "risk.shell",
  "risk.eval",
  "risk.destructive_fs",
  "risk.broad_fs_write",
  "risk.external_side_effect",
  "risk.secret_touching",
  "risk.network",
  "risk.long_running",
  "risk.platform_specific",
  "risk.option_injection",
] as const;

export type RiskLabel = (typeof RISK_LABEL_ORDER)[number];

const NETWORK_COMMANDS = ["curl", "wget", "ssh", "scp", "sftp", "rsync", "nc", "ncat", "telnet", "ftp"];
const PACKAGE_MANAGERS = ["npm", "pnpm", "yarn", "pip", "cargo"];
const NODE_PACKAGE_MANAGERS = ["npm", "pnpm", "yarn"];
const REMOTE_CONTROL = ["gh", "glab", "hub", "kubectl", "terraform"];
const PLATFORM_COMMANDS = [
  "systemctl", "launchctl", "osascript", "open", "xdg-open", "powershell", "pwsh", "cmd.exe",
  "apt", "apt-get", "dnf", "yum", "brew", "pacman", "apk", "xclip", "wl-copy",
];
const SECRET_COMMANDS = ["pass", "gpg", "ssh-add"];
// A secret-ish word counts only as a delimited part: `{api_key}` and `GITHUB_TOKEN` do,
// `tokens` and `tokenizer` do not.
const SECRET_PART =
  /(?:^|[\s{}._/-])(?:secret|token|passw(?:or)?d|credential|(?:api|private|ssh)[_-]?key|\.env)(?=$|[\s{}._/-])/i;

const bit = (label: RiskLabel): number => 1 << RISK_LABEL_ORDER.indexOf(label);

const SHELL = bit("risk.shell");
const EVAL = bit("risk.eval");
const DESTRUCTIVE_FS = bit("risk.destructive_fs");
const BROAD_FS_WRITE = bit("risk.broad_fs_write");
const EXTERNAL_SIDE_EFFECT = bit("risk.external_side_effect");
const SECRET_TOUCHING = bit("risk.secret_touching");
const NETWORK = bit("risk.network");
const LONG_RUNNING = bit("risk.long_running");
const PLATFORM_SPECIFIC = bit("risk.platform_specific");

/** The labels of one leaf as a set of bits, bit i for RISK_LABEL_ORDER[i]: no allocation per leaf. */
export function leafLabelMask(shape: LeafShape): number {
  const { command: cmd, args } = shape;
  let mask = 0;
  if (SHELLS.includes(cmd)) {
    mask |= SHELL;
    if (hasFlag(args, "-c")) mask |= EVAL;
  }
  if (isJsEval(shape) || isScriptEval(shape)) mask |= EVAL;
  if (isDestructiveRemove(shape)) mask |= DESTRUCTIVE_FS;
  if (isBroadWrite(shape)) mask |= BROAD_FS_WRITE;
  if (
    REMOTE_CONTROL.includes(cmd) ||
    (cmd === "git" && hasArg(args, "push")) ||
    (NODE_PACKAGE_MANAGERS.includes(cmd) && hasArg(args, "publish", "login", "logout", "deprecate"))
  )
    mask |= EXTERNAL_SIDE_EFFECT;
  if (SECRET_COMMANDS.includes(cmd) || shape.words.some((w) => SECRET_PART.test(w)))
    mask |= SECRET_TOUCHING;
  if (
    NETWORK_COMMANDS.includes(cmd) ||
    PACKAGE_MANAGERS.includes(cmd) ||
    (cmd === "git" && hasArg(args, "clone", "fetch", "pull", "push", "ls-remote"))
  )
    mask |= NETWORK;
  if (
    cmd === "sleep" ||
    cmd === "watch" ||
    (cmd === "tail" && hasFlag(args, "-f")) ||
    hasArg(args, "--watch", "--serve", "serve")
  )
    mask |= LONG_RUNNING;
  if (PLATFORM_COMMANDS.includes(cmd)) mask |= PLATFORM_SPECIFIC;
  return mask;
}

/** The labels of a mask, in the fixed order. */
export const labelsOfMask = (mask: number): RiskLabel[] => RISK_LABEL_ORDER.filter((_l, i) => (mask & (1 << i)) !== 0);

const ordered = (labels: ReadonlySet<string>): RiskLabel[] => RISK_LABEL_ORDER.filter((l) => labels.has(l));

/** Labels of every leaf of a template graph (recover subtrees included), in the fixed order. */
export function templateRiskLabels(template: Json): RiskLabel[] {
  let mask = 0;
  for (const leaf of leaves(template)) mask |= leafLabelMask(leafShape(leaf.text));
  return labelsOfMask(mask);
}

/** A recipe's labels: its template's, plus `risk.long_running` for `async: true` and
 * `risk.option_injection` when a string argument can become an option (option-injection.ts).
 * `template`: the labels of `config.template`, when a walk has already found them. */
export function riskLabels(config: RecipeConfig, template: readonly RiskLabel[] = templateRiskLabels(config.template)): string[] {
  const async = config.async === true && !template.includes("risk.long_running");
  const injection = optionInjectionArgs(config).length > 0;
  if (!async && !injection) return [...template];
  const all = new Set<string>(template);
  if (async) all.add("risk.long_running");
  if (injection) all.add("risk.option_injection");
  return ordered(all);
}
