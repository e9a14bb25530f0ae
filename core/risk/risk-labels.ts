// Advisory risk labels: deterministic
// review aids for doctor and triage views, never execution blockers.
import {
  hasArg,
  hasFlag,
  isBroadWrite,
  isDestructiveRemove,
  isJsEval,
  isScriptEval,
  BROAD_WRITERS,
  JS_RUNTIMES,
  SCRIPT_INTERPRETERS,
  SHELLS,
  type LeafShape,
} from "./leaf-shape.js";
import { ENV_RULE_COMMANDS, isVersionedInterpreter, leafDumpsEnvironment } from "./environment-dump.js";
import { SECRET_PART } from "./secret-word.js";

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
// Files and folders that hold credentials by convention, whatever the command that reads them:
// ssh keys and their folder, GnuPG's and pass's stores, netrc, git's, PostgreSQL's, PyPI's and
// npm's credential files, the cloud and container CLIs' folders, Vault's token, /etc/shadow.
// A public key (`id_rsa.pub`) is none of them.
// A process's environment (`/proc/<pid or self>/environ`) is one too: it holds every token the
// process was given.
const CREDENTIAL_STORE =
  /(?:^|[/~=:])(?:proc\/[^\s/]+\/environ(?=$|[\s'";|&)])|\.(?:ssh|gnupg|password-store|aws|azure|kube|docker)\/|\.(?:netrc|git-credentials|pgpass|pypirc|npmrc|vault-token)(?=$|[/\s'"])|id_(?:rsa|dsa|ecdsa|ed25519)(?:_sk)?(?=$|[\s'"])|\.config\/gcloud(?=$|\/)|etc\/g?shadow(?=$|[\s'"]))/;

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

// loops rather than `some` with a closure or `hasArg` with a rest array: these two run for every leaf
function anySecretWord(words: readonly string[]): boolean {
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    if (SECRET_PART.test(word) || CREDENTIAL_STORE.test(word)) return true;
  }
  return false;
}

const WATCH_ARGS: ReadonlySet<string> = new Set(["--watch", "--serve", "serve"]);

/** hasArg(args, "--watch", "--serve", "serve") */
function anyWatchArg(args: readonly string[]): boolean {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    // lower-casing makes a string: only for words of the right length ("serve", "--watch", "--serve")
    if ((arg.length === 5 || arg.length === 7) && WATCH_ARGS.has(arg.toLowerCase())) return true;
  }
  return false;
}

// Every command some rule below names. Any other command (nearly every leaf: a project's own
// scripts and tools) can only earn the labels read from its words, found without the list scans.
const NAMED_COMMANDS: ReadonlySet<string> = new Set([
  ...SHELLS, ...JS_RUNTIMES, ...SCRIPT_INTERPRETERS, "rm", ...BROAD_WRITERS, ...REMOTE_CONTROL, "git", ...NODE_PACKAGE_MANAGERS,
  ...SECRET_COMMANDS, ...ENV_RULE_COMMANDS, ...NETWORK_COMMANDS, ...PACKAGE_MANAGERS, "sleep", "watch", "tail", ...PLATFORM_COMMANDS,
]);

/** The labels of one leaf as a set of bits, bit i for RISK_LABEL_ORDER[i]: no allocation per leaf. */
export function leafLabelMask(shape: LeafShape): number {
  const { command: cmd, args } = shape;
  if (!NAMED_COMMANDS.has(cmd) && !isVersionedInterpreter(cmd)) return (anySecretWord(shape.words) ? SECRET_TOUCHING : 0) | (anyWatchArg(args) ? LONG_RUNNING : 0);
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
  if (SECRET_COMMANDS.includes(cmd) || anySecretWord(shape.words) || leafDumpsEnvironment(shape))
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
    anyWatchArg(args)
  )
    mask |= LONG_RUNNING;
  if (PLATFORM_COMMANDS.includes(cmd)) mask |= PLATFORM_SPECIFIC;
  return mask;
}

/** The labels of a mask, in the fixed order: one shared frozen list per mask (a registry keeps
 * one per recipe, and there are few distinct ones). */
export const labelsOfMask = (mask: number): readonly RiskLabel[] =>
  (LABEL_LISTS[mask] ??= Object.freeze(RISK_LABEL_ORDER.filter((_l, i) => (mask & (1 << i)) !== 0)));

const LABEL_LISTS: (readonly RiskLabel[] | undefined)[] = [];

const OPTION_INJECTION = bit("risk.option_injection");

/** A recipe's labels: its template's, plus `risk.long_running` for an async recipe (a detached
 * run outlives the call) and `risk.option_injection` when a string argument can become an option
 * (core/risk/option-injection.ts). */
export function recipeRiskLabels(template: readonly RiskLabel[], async: boolean, optionInjection: boolean): readonly RiskLabel[] {
  const extra = (async ? LONG_RUNNING : 0) | (optionInjection ? OPTION_INJECTION : 0);
  if (extra === 0) return template;
  const mask = template.reduce((m, l) => m | bit(l), extra);
  return mask === template.reduce((m, l) => m | bit(l), 0) ? template : labelsOfMask(mask);
}
