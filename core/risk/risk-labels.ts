// Advisory risk labels (registry-reference §3.12, lifecycle-reference §15.3): deterministic
// review aids for doctor and triage views, never execution blockers.
import type { Json, RecipeConfig } from "../model.js";
import { leaves } from "../template/graph.js";
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

function leafLabels(shape: LeafShape): Set<RiskLabel> {
  const { command: cmd, args } = shape;
  const labels = new Set<RiskLabel>();
  if (SHELLS.includes(cmd)) {
    labels.add("risk.shell");
    if (hasFlag(args, "-c")) labels.add("risk.eval");
  }
  if (isJsEval(shape) || isScriptEval(shape)) labels.add("risk.eval");
  if (isDestructiveRemove(shape)) labels.add("risk.destructive_fs");
  if (isBroadWrite(shape)) labels.add("risk.broad_fs_write");
  if (
    REMOTE_CONTROL.includes(cmd) ||
    (cmd === "git" && hasArg(args, "push")) ||
    (NODE_PACKAGE_MANAGERS.includes(cmd) && hasArg(args, "publish", "login", "logout", "deprecate"))
  )
    labels.add("risk.external_side_effect");
  if (SECRET_COMMANDS.includes(cmd) || shape.words.some((w) => SECRET_PART.test(w)))
    labels.add("risk.secret_touching");
  if (
    NETWORK_COMMANDS.includes(cmd) ||
    PACKAGE_MANAGERS.includes(cmd) ||
    (cmd === "git" && hasArg(args, "clone", "fetch", "pull", "push", "ls-remote"))
  )
    labels.add("risk.network");
  if (
    cmd === "sleep" ||
    cmd === "watch" ||
    (cmd === "tail" && hasFlag(args, "-f")) ||
    hasArg(args, "--watch", "--serve", "serve")
  )
    labels.add("risk.long_running");
  if (PLATFORM_COMMANDS.includes(cmd)) labels.add("risk.platform_specific");
  return labels;
}

const ordered = (labels: ReadonlySet<string>): RiskLabel[] => RISK_LABEL_ORDER.filter((l) => labels.has(l));

/** Labels of every leaf of a template graph (recover subtrees included), in the fixed order. */
export function templateRiskLabels(template: Json): RiskLabel[] {
  const all = new Set<RiskLabel>();
  for (const leaf of leaves(template)) for (const l of leafLabels(leafShape(leaf.text))) all.add(l);
  return ordered(all);
}

/** A recipe's labels: its template's, plus `risk.long_running` for `async: true`. */
export function riskLabels(config: RecipeConfig): string[] {
  const all = new Set<string>(templateRiskLabels(config.template));
  if (config.async === true) all.add("risk.long_running");
  return ordered(all);
}
