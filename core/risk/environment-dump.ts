// Printing the whole environment prints every secret in it (API keys, the tokens a host was
// started with), so a leaf that does it touches secrets as much as one that names a secret.
// The rule, one predicate per way of doing it:
//   - `env` or `printenv` with nothing but options (for `env`, also the values of -u and -C and
//     NAME=value assignments: with no command after them it prints the environment);
//   - a wrapper that runs a command given in its words running any leaf of this rule, wrappers
//     inside wrappers included (`sudo timeout 5 env`): `command`, `exec`, `busybox`, `toybox`,
//     `nohup`, `env` followed by a command, `timeout`, `sudo`, `doas`, `nice`, `ionice`,
//     `stdbuf`, `setsid`, `time`, `taskset`, `chrt`, `flock`, `chroot`, `unshare` and `xargs`.
//     Each one's words are read the way it reads them (WRAPPER_SYNTAX): its options, the ones
//     that take a value (`timeout -s KILL`, `sudo -u bob`, `stdbuf -o0`), then the operands it
//     takes before the command (timeout's duration, flock's file, chroot's new root, taskset's
//     mask, chrt's priority), `sudo`'s NAME=value; `flock FILE -c SCRIPT` runs SCRIPT in a shell.
//     No command, or an option that makes it run none (`command -v`, `sudo -l`, `taskset -p`,
//     `doas -C`), is no dump: `sudo -i`, `chroot DIR` and `unshare` alone start a shell, `xargs`
//     alone runs `echo`, `nice` alone prints the niceness;
//   - in a shell script (`sh -c`), any simple command of it (split at `;`, `&`, `|`, parentheses,
//     backticks and new lines, redirections and leading NAME=value dropped) read as a leaf, so
//     through the wrappers above too (`sh -c 'timeout 5 env > x'`), plus the builtins that list
//     the variables: a bare `set` or `export`, `export -p`, `declare`/`typeset` with -x or -p
//     and no name;
//   - the code of an inline script (not the arguments after it) reaching the environment object:
//     JavaScript (`node`/`bun -e|--eval|-p|--print`, `deno eval`) `process.env`, `Deno.env`,
//     `Bun.env` or the `process` module's `env`; Python (`-c`) `os.environ`, `os.getenv`, or
//     `environ` imported from `os`; Perl (`-e`/`-E`) `%ENV`/`$ENV{`; Ruby (`-e`) `ENV`; an awk
//     program's `ENVIRON`; a jq filter's `env` or `$ENV`. Versioned interpreter names
//     (`python3.12`, `node20`) are the interpreter.
// Reading one variable is not a dump: as `printenv NAME` touches secrets only when NAME looks
// secret, JavaScript's `process.env.NAME` (the name written in the code) counts only then. A call
// or a subscript (`os.getenv(...)`, `ENV[...]`, `process.env[...]`) takes an expression that is
// not evaluated here, so it counts as reaching them all.
import { splitWords } from "../template/split.js";
import { leafShapeOfWords, type LeafShape } from "./leaf-shape.js";
import { SECRET_PART } from "./secret-word.js";

/** How a wrapper reads its words before the command it runs, by getopt's rules: short options
 * cluster (`-fv`), a short option's value is the rest of its word or else the next word (`-o0`,
 * `-o 0`), a long option's value follows `=` or is the next word, a long option may be shortened
 * to a prefix naming only it, `--` ends the options, and so does the first operand. */
interface WrapperSyntax {
  /** short options that take a value */
  readonly shortValues?: string;
  /** short options with which it runs no command (`command -v`, `sudo -l`, `taskset -p`) */
  readonly shortNoCommand?: string;
  /** long options that take a value (`--signal KILL`, `--signal=KILL`) */
  readonly longValues?: readonly string[];
  /** its other long options, known so that a shortened one is read as the option it names */
  readonly longFlags?: readonly string[];
  /** long options with which it runs no command (`--help` and `--version` always are) */
  readonly longNoCommand?: readonly string[];
  /** operands before the command: timeout's DURATION, flock's FILE, chroot's NEWROOT, taskset's MASK */
  readonly operands?: number;
  /** chrt: a priority before the command when the next word is a number */
  readonly priority?: boolean;
  /** nice: `-N`, `--N` and `-+N` set the adjustment */
  readonly numberOption?: boolean;
  /** sudo: NAME=value words before the command set variables */
  readonly assignments?: boolean;
  /** flock: `-c SCRIPT` or `--command SCRIPT` after the operands runs SCRIPT in a shell */
  readonly shellString?: boolean;
}

const WRAPPER_SYNTAX: ReadonlyMap<string, WrapperSyntax> = new Map(Object.entries({
  command: { shortNoCommand: "vV" },
  exec: { shortValues: "a" },
  busybox: { longNoCommand: ["list", "list-full", "install"] },
  toybox: {},
  nohup: {},
  // timeout [-fv] [-s SIG] [-k DUR] DURATION CMD
  timeout: { shortValues: "ks", longValues: ["kill-after", "signal"], longFlags: ["foreground", "preserve-status", "verbose"], operands: 1 },
  // sudo [opts] [NAME=value...] CMD; -e edits files, -l lists, -v, -K and -V run nothing
  sudo: {
    shortValues: "aCcDghpRrTtUu",
    shortNoCommand: "elvKV",
    longValues: ["auth-type", "close-from", "login-class", "chdir", "group", "host", "prompt", "chroot", "role", "type", "command-timeout", "other-user", "user"],
    longFlags: ["askpass", "background", "bell", "preserve-env", "set-home", "login", "reset-timestamp", "non-interactive", "preserve-groups", "stdin", "shell"],
    longNoCommand: ["edit", "list", "validate", "remove-timestamp"],
    assignments: true,
  },
  // doas [-ns] [-a STYLE] [-u USER] CMD; -C FILE only checks the configuration, -L clears and exits
  doas: { shortValues: "au", shortNoCommand: "CL" },
  // nice [-n N | -N] [CMD]
  nice: { shortValues: "n", longValues: ["adjustment"], numberOption: true },
  // ionice [-c CLASS] [-n LEVEL] [-t] CMD; -p, -P and -u name running processes instead
  ionice: { shortValues: "cn", shortNoCommand: "pPuhV", longValues: ["class", "classdata"], longFlags: ["ignore"], longNoCommand: ["pid", "pgid", "uid"] },
  // stdbuf -i|-o|-e MODE... CMD
  stdbuf: { shortValues: "ioe", longValues: ["input", "output", "error"] },
  // setsid [-cfw] CMD
  setsid: { shortNoCommand: "hV", longFlags: ["ctty", "fork", "wait"] },
  // the shell's `time [-p]` and `/usr/bin/time [-apqv] [-f FORMAT] [-o FILE]`
  time: { shortValues: "fo", shortNoCommand: "V", longValues: ["format", "output"], longFlags: ["append", "portability", "quiet", "verbose"] },
  // taskset [-ac] MASK CMD; -p works on a running process
  taskset: { shortNoCommand: "phV", longFlags: ["all-tasks", "cpu-list"], longNoCommand: ["pid"], operands: 1 },
  // chrt [policy and -T|-P|-D NS] [PRIORITY] CMD; -p works on a running process, -m prints limits
  chrt: {
    shortValues: "TPD",
    shortNoCommand: "pmhV",
    longValues: ["sched-runtime", "sched-period", "sched-deadline"],
    longFlags: ["all-tasks", "batch", "deadline", "fifo", "idle", "other", "rr", "reset-on-fork", "verbose"],
    longNoCommand: ["pid", "max"],
    priority: true,
  },
  // flock [-sxunoF] [-w SECS] [-E CODE] FILE CMD, or FILE -c SCRIPT
  flock: {
    shortValues: "wE",
    shortNoCommand: "hV",
    longValues: ["timeout", "wait", "conflict-exit-code", "start", "length"],
    longFlags: ["shared", "exclusive", "unlock", "nonblocking", "nb", "close", "no-fork", "verbose", "fcntl"],
    operands: 1,
    shellString: true,
  },
  // chroot [--userspec=U:G] [--groups=G] [--skip-chdir] NEWROOT [CMD]
  chroot: { longValues: ["userspec", "groups"], longFlags: ["skip-chdir"], operands: 1 },
  // unshare [opts] [CMD]; the namespace options take a file only after `=`
  unshare: {
    shortValues: "RwSGl",
    shortNoCommand: "hV",
    longValues: ["map-user", "map-users", "map-group", "map-groups", "propagation", "setgroups", "setuid", "setgid", "root", "wd", "monotonic", "boottime", "load-interp"],
    longFlags: ["mount", "uts", "ipc", "net", "pid", "user", "cgroup", "time", "fork", "kill-child", "mount-proc", "mount-binfmt", "map-root-user", "map-current-user", "map-auto", "map-subids", "keep-caps"],
  },
  // xargs [opts] [CMD [ARG...]]; its -e, -i and -l take a value only attached (`-i{}`)
  xargs: {
    shortValues: "aEILnsPd",
    longValues: ["arg-file", "delimiter", "max-args", "max-procs", "max-chars", "process-slot-var"],
    longFlags: ["null", "eof", "replace", "max-lines", "interactive", "no-run-if-empty", "verbose", "exit", "show-limits", "open-tty"],
  },
} satisfies Record<string, WrapperSyntax>));
/** Every command the rule below can apply to, besides versioned interpreter names. */
export const ENV_RULE_COMMANDS: readonly string[] = [
  "env", "printenv", ...WRAPPER_SYNTAX.keys(), "node", "nodejs", "bun", "deno", "python", "perl", "ruby",
  "awk", "gawk", "mawk", "nawk", "jq", "gojq", "jaq", "bash", "sh", "zsh", "fish", "dash", "ksh",
];

type Language = "js" | "deno" | "python" | "perl" | "ruby" | "awk" | "jq" | "shell";

// the interpreter a command name runs, a version suffix (`python3.12`, `node20`) included
const LANGUAGE_OF_COMMAND = /^(?:(node|nodejs|bun)|(deno)|(python)|(perl)|(ruby)|(g?awk|mawk|nawk)|(jq|gojq|jaq)|(bash|sh|zsh|fish|dash|ksh))[\d.]*$/;
const LANGUAGES: readonly Language[] = ["js", "deno", "python", "perl", "ruby", "awk", "jq", "shell"];

/** Whether a command name is one of the interpreters above under a versioned name. */
export const isVersionedInterpreter = (cmd: string): boolean => /\d$/.test(cmd) && LANGUAGE_OF_COMMAND.test(cmd);

function languageOf(cmd: string): Language | undefined {
  const m = LANGUAGE_OF_COMMAND.exec(cmd);
  if (m === null) return undefined;
  for (let i = 0; i < LANGUAGES.length; i++) if (m[i + 1] !== undefined) return LANGUAGES[i];
  return undefined;
}

const ENV_VALUE_OPTIONS: ReadonlySet<string> = new Set(["-u", "--unset", "-C", "--chdir"]);
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

/** The index of the command `env` runs (after its options, their values and NAME=value), or
 * args.length when it runs none and so prints the environment. */
function envCommandIndex(args: readonly string[]): number {
  let i = 0;
  for (; i < args.length; i++) {
    const arg = args[i]!;
    if (ENV_VALUE_OPTIONS.has(arg)) i++;
    else if (!arg.startsWith("-") && !ASSIGNMENT.test(arg)) break;
  }
  return i;
}

/** The long option a word names (`--sig` names `--signal`), given exactly or as a prefix of
 * only one of the wrapper's; undefined for one it does not know, read as an option without value. */
function longOptionNamed(syntax: WrapperSyntax, name: string): string | undefined {
  const all = [...(syntax.longValues ?? []), ...(syntax.longFlags ?? []), ...(syntax.longNoCommand ?? []), "help", "version"];
  if (all.includes(name)) return name;
  const prefixed = all.filter((option) => option.startsWith(name));
  return prefixed.length === 1 ? prefixed[0] : undefined;
}

const NO_COMMAND = -1;

/** The index of the first word after a wrapper's options (the values of those that take one
 * skipped), or NO_COMMAND when one of them makes it run no command. */
function afterOptions(syntax: WrapperSyntax, args: readonly string[]): number {
  let i = 0;
  for (; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--") return i + 1;
    if (arg === "-" || !arg.startsWith("-")) return i;
    if (syntax.numberOption === true && /^-[-+]?\d/.test(arg)) continue;
    if (arg.startsWith("--")) {
      const eq = arg.indexOf("=");
      const option = longOptionNamed(syntax, arg.slice(2, eq < 0 ? undefined : eq));
      if (option === undefined) continue;
      if (option === "help" || option === "version" || syntax.longNoCommand?.includes(option)) return NO_COMMAND;
      if (eq < 0 && syntax.longValues?.includes(option)) i++;
      continue;
    }
    for (let j = 1; j < arg.length; j++) {
      const letter = arg[j]!;
      if (syntax.shortNoCommand?.includes(letter)) return NO_COMMAND;
      if (syntax.shortValues?.includes(letter)) {
        if (j === arg.length - 1) i++;
        break;
      }
    }
  }
  return i;
}

/** The leaf a wrapper runs, or undefined when it runs none (`command -v env` only names it). */
function wrappedLeaf(cmd: string, args: readonly string[]): LeafShape | undefined {
  if (cmd === "env") {
    const i = envCommandIndex(args);
    return i < args.length ? leafShapeOfWords(args.slice(i)) : undefined;
  }
  const syntax = WRAPPER_SYNTAX.get(cmd);
  if (syntax === undefined) return undefined;
  let i = afterOptions(syntax, args);
  if (i === NO_COMMAND) return undefined;
  i += syntax.operands ?? 0;
  if (syntax.priority === true && i < args.length && /^\d+$/.test(args[i]!)) i++;
  if (syntax.assignments === true) while (i < args.length && ASSIGNMENT.test(args[i]!)) i++;
  if (syntax.shellString === true && (args[i] === "-c" || args[i] === "--command"))
    return i + 1 < args.length ? leafShapeOfWords(["sh", "-c", args[i + 1]!]) : undefined;
  return i < args.length ? leafShapeOfWords(args.slice(i)) : undefined;
}

// the shell builtins that list every variable: bare `set`/`export`, `export -p`,
// `declare`/`typeset` with -x or -p and no name
function shellListsVariables(cmd: string, args: readonly string[]): boolean {
  if (cmd === "set") return args.length === 0;
  if (cmd === "export") return args.every((a) => a === "-p");
  if (cmd === "declare" || cmd === "typeset")
    return args.length > 0 && args.every((a) => a.startsWith("-")) && args.some((a) => /^-[A-Za-z]*[xp]/.test(a));
  return false;
}

// the words before a simple command that are not its command: `if env; then`, `{ env; }`, `! env`
// (the shell's `time` is read as the wrapper above, `-p` and all)
const SHELL_PREFIX_WORDS: ReadonlySet<string> = new Set(["{", "!", "if", "then", "elif", "else", "while", "until", "do"]);

/** The simple commands of a shell script, each as its words, redirections and leading
 * NAME=value dropped. Quotes are kept for the word splitting, so a separator inside them stays. */
function shellSimpleCommands(script: string): (readonly string[])[] {
  const out: (readonly string[])[] = [];
  let text = "";
  let quote: string | undefined;
  const flush = (): void => {
    const words: string[] = [];
    let skipTarget = false;
    for (const word of splitWords(text)) {
      if (skipTarget) skipTarget = false;
      else if (/^[<>]/.test(word)) skipTarget = /^[<>]+$/.test(word);
      else if (words.length > 0 || !(ASSIGNMENT.test(word) || SHELL_PREFIX_WORDS.has(word))) words.push(word);
    }
    if (words.length > 0) out.push(words);
    text = "";
  };
  for (let i = 0; i < script.length; i++) {
    const c = script[i]!;
    if (quote !== undefined) {
      if (c === quote) quote = undefined;
      text += c;
      if (c === "\\" && quote === '"') text += script[++i] ?? "";
    } else if (c === "\\") text += c + (script[++i] ?? "");
    else if (c === "'" || c === '"') {
      quote = c;
      text += c;
    } else if (";&|()`\n".includes(c)) flush();
    else if (c === "<" || c === ">") {
      // a redirection is a word of its own, its file descriptor number with it
      text = text.replace(/(^|\s)\d+$/, "$1") + " " + c;
    } else text += c;
  }
  flush();
  return out;
}

const JS_ENV = /\b(?:process|Deno|Bun)\s*\.\s*env\b|["'](?:node:)?process["'][\s\S]*\benv\b|\benv\b[\s\S]*["'](?:node:)?process["']/;
const JS_NAMED_READ = /\b(?:process|Bun)\.env\.([A-Za-z_$][\w$]*)/g;
const PYTHON_ENV = /\.\s*(?:environb?|getenvb?)\b|\bfrom\s+(?:os|posix)\s+import\b[^;\n]*(?:\benvironb?\b|\bgetenvb?\b|\*)/;
const PERL_ENV = /[%$@]ENV\b/;
const RUBY_ENV = /\bENV\b/;
const AWK_ENV = /\bENVIRON\b/;
const JQ_ENV = /\$ENV\b|(?<![.$\w"])env\b/;

/** Whether JavaScript code reaches the environment other than by reading named variables whose
 * names do not look secret. */
function jsReachesEnvironment(code: string): boolean {
  const rest = code.replace(JS_NAMED_READ, (read, name: string) => (SECRET_PART.test(name) ? read : ""));
  return JS_ENV.test(rest);
}

// Options, per language, that take the next word as their value (before the code or script).
const VALUE_OPTIONS: Readonly<Record<Language, ReadonlySet<string>>> = {
  js: new Set(["-r", "--require", "--import", "--loader", "--experimental-loader", "-C", "--conditions"]),
  deno: new Set([]),
  python: new Set(["-W", "-X"]),
  perl: new Set(["-I", "-M", "-m"]),
  ruby: new Set(["-r", "-I", "-C"]),
  awk: new Set(["-F", "-v"]),
  jq: new Set(["--indent", "-L"]),
  shell: new Set(["-o", "+o"]),
};
// the flags (or, in a cluster such as `-pe` or `-lne`, its last letter) whose next word is code
const CODE_FLAG: Readonly<Record<Language, RegExp>> = {
  js: /^(?:--eval|--print|-[A-Za-z]*[ep])$/,
  deno: /^$/,
  python: /^-[A-Za-z]*c$/,
  perl: /^-[A-Za-z]*[eE]$/,
  ruby: /^-[A-Za-z]*e$/,
  awk: /^(?:-e|--source)$/,
  jq: /^$/,
  shell: /^$/,
};

/** The inline code a leaf of this language runs: the values of its code flags, or (awk, jq,
 * `sh -c`, `deno eval`) its first operand; never the arguments after the code. */
function inlineCode(language: Language, args: readonly string[]): string[] {
  const code: string[] = [];
  let shellCommand = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--") {
      if (language === "awk" || language === "jq") {
        if (i + 1 < args.length) code.push(args[i + 1]!);
      }
      break;
    }
    const inline = /^--(?:eval|print)=([\s\S]*)$/.exec(arg);
    if (language === "js" && inline !== null) code.push(inline[1]!);
    else if (CODE_FLAG[language].test(arg) && i + 1 < args.length) code.push(args[++i]!);
    else if (language === "python" && /^-[A-Za-z]*c./.test(arg)) {
      code.push(arg.slice(arg.indexOf("c") + 1));
      break;
    } else if ((language === "awk" || language === "jq") && (arg === "-f" || arg === "--from-file")) return code;
    else if (language === "jq" && /^--(?:arg|argjson|slurpfile|rawfile)$/.test(arg)) i += 2;
    else if (VALUE_OPTIONS[language].has(arg)) i++;
    else if (language === "shell" && /^-[A-Za-z]*c[A-Za-z]*$/.test(arg)) shellCommand = true;
    else if (arg.startsWith("-") || arg.startsWith("+")) continue;
    else {
      // the first operand: a script file (its arguments follow), or the code itself
      if (language === "awk" || language === "jq" || (language === "shell" && shellCommand)) code.push(arg);
      else if (language === "deno" && arg === "eval" && i + 1 < args.length) code.push(args.slice(i + 1).find((a) => !a.startsWith("-")) ?? "");
      break;
    }
    if (code.length > 0 && language === "python") break;
  }
  return code;
}

/** Whether code in this language reaches the whole environment (the rules at the top). */
function codeReachesEnvironment(language: Language, code: string, depth: number): boolean {
  switch (language) {
    case "js":
    case "deno":
      return jsReachesEnvironment(code);
    case "python":
      return PYTHON_ENV.test(code);
    case "perl":
      return PERL_ENV.test(code);
    case "ruby":
      return RUBY_ENV.test(code);
    case "awk":
      return AWK_ENV.test(code);
    case "jq":
      return JQ_ENV.test(code);
    case "shell":
      return shellSimpleCommands(code).some((words) => {
        const shape = leafShapeOfWords(words);
        return shellListsVariables(shape.command, shape.args) || leafDumpsEnvironment(shape, depth + 1);
      });
  }
}

// a wrapper or a shell script inside another one is read this deep, no further
const MAX_DEPTH = 8;

/** Whether the leaf prints or reads the whole environment (the rules at the top). */
export function leafDumpsEnvironment(shape: LeafShape, depth = 0): boolean {
  if (depth > MAX_DEPTH) return false;
  const { command: cmd, args } = shape;
  if (cmd === "printenv") return args.every((a) => a.startsWith("-"));
  if (cmd === "env" && envCommandIndex(args) === args.length) return true;
  if (cmd === "env" || WRAPPER_SYNTAX.has(cmd)) {
    const leaf = wrappedLeaf(cmd, args);
    return leaf !== undefined && leafDumpsEnvironment(leaf, depth + 1);
  }
  const language = languageOf(cmd);
  if (language === undefined) return false;
  const code = inlineCode(language, args);
  for (let i = 0; i < code.length; i++) if (codeReachesEnvironment(language, code[i]!, depth)) return true;
  return false;
}
