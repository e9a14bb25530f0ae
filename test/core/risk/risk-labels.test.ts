import { describe, expect, it } from "vitest";
import type { Json, RecipeConfig } from "../../../core/model.js";
import { RISK_LABEL_ORDER } from "../../../core/risk/risk-labels.js";
import { riskLabels, templateRiskLabels } from "../../support/template-reads.js";

const recipe = (template: Json, extra: Partial<RecipeConfig> = {}): RecipeConfig => ({
  name: "r",
  template,
  raw: {},
  ...extra,
});

describe("riskLabels", () => {
  it("bash -c is shell and eval", () => {
    expect(riskLabels(recipe("bash -c 'echo risky'"))).toEqual(["risk.shell", "risk.eval"]);
  });

  it("async adds risk.long_running", () => {
    expect(riskLabels(recipe("sleep 1", { async: true }))).toContain("risk.long_running");
    expect(riskLabels(recipe("echo hi", { async: true }))).toEqual(["risk.long_running"]);
    expect(riskLabels(recipe("echo hi", { async: false }))).toEqual([]);
  });

  it("a shell without -c is shell only; combined flags count", () => {
    expect(templateRiskLabels("bash ./script.sh")).toEqual(["risk.shell"]);
    expect(templateRiskLabels("/usr/bin/ZSH -lc {cmd}")).toEqual(["risk.shell", "risk.eval"]);
    expect(templateRiskLabels("fish -c x")).toEqual(["risk.shell", "risk.eval"]);
  });

  it("eval: node/deno/bun -e/--eval, python/perl/ruby -c/-e", () => {
    expect(templateRiskLabels("node -e {code}")).toEqual(["risk.eval"]);
    expect(templateRiskLabels("deno --eval x")).toEqual(["risk.eval"]);
    expect(templateRiskLabels("bun -pe x")).toEqual(["risk.eval"]);
    expect(templateRiskLabels("python3 -Ic {code}")).toEqual(["risk.eval"]);
    expect(templateRiskLabels("perl -e 1")).toEqual(["risk.eval"]);
    expect(templateRiskLabels("node script.js")).toEqual([]);
    expect(templateRiskLabels("python3 -m http.server")).toEqual([]);
    expect(templateRiskLabels("ruby --version")).toEqual([]);
  });

  it("destructive_fs: rm with r/f flags or a risky path", () => {
    expect(templateRiskLabels("rm -rf build")).toEqual(["risk.destructive_fs"]);
    expect(templateRiskLabels("rm -f out.txt")).toEqual(["risk.destructive_fs"]);
    expect(templateRiskLabels("rm --recursive build")).toEqual(["risk.destructive_fs"]);
    expect(templateRiskLabels("rm {file}")).toEqual(["risk.destructive_fs"]);
    expect(templateRiskLabels("rm /tmp/x")).toEqual(["risk.destructive_fs"]);
    expect(templateRiskLabels("rm out.txt")).toEqual([]);
    expect(templateRiskLabels("rm -v out.txt")).toEqual([]);
  });

  it("broad_fs_write: mv/cp/rsync with a risky path", () => {
    expect(templateRiskLabels("cp a /etc/target")).toEqual(["risk.broad_fs_write"]);
    expect(templateRiskLabels("mv ~/a b")).toEqual(["risk.broad_fs_write"]);
    expect(templateRiskLabels("mv a ../")).toEqual(["risk.broad_fs_write"]);
    expect(templateRiskLabels("cp {src} out")).toEqual(["risk.broad_fs_write"]);
    expect(templateRiskLabels("cp a b")).toEqual([]);
    expect(templateRiskLabels("mv ../a b")).toEqual([]);
  });

  it("external_side_effect and network", () => {
    expect(templateRiskLabels("gh pr create")).toEqual(["risk.external_side_effect"]);
    expect(templateRiskLabels("kubectl apply -f x")).toEqual(["risk.external_side_effect"]);
    expect(templateRiskLabels("git push origin main")).toEqual(["risk.external_side_effect", "risk.network"]);
    expect(templateRiskLabels("npm publish")).toEqual(["risk.external_side_effect", "risk.network"]);
    expect(templateRiskLabels("npm install")).toEqual(["risk.network"]);
    expect(templateRiskLabels("git fetch")).toEqual(["risk.network"]);
    expect(templateRiskLabels("git status")).toEqual([]);
    expect(templateRiskLabels("curl https://example.test")).toEqual(["risk.network"]);
    expect(templateRiskLabels("rsync a b")).toEqual(["risk.network"]);
  });

  it("secret_touching: secret commands and delimited secret-ish parts", () => {
    expect(templateRiskLabels("gpg --decrypt f")).toEqual(["risk.secret_touching"]);
    expect(templateRiskLabels("ssh-add key")).toEqual(["risk.secret_touching"]);
    expect(templateRiskLabels("tool --key {api_key}")).toEqual(["risk.secret_touching"]);
    expect(templateRiskLabels("printenv GITHUB_TOKEN")).toEqual(["risk.secret_touching"]);
    expect(templateRiskLabels("cat config/.env")).toEqual(["risk.secret_touching"]);
    expect(templateRiskLabels("tool --password-file x")).toEqual(["risk.secret_touching"]);
    expect(templateRiskLabels("echo tokens tokenizer")).toEqual([]);
    expect(templateRiskLabels("echo myenv")).toEqual([]);
  });

  it("secret_touching: a word naming a credential store, whatever the command", () => {
    for (const t of [
      "cat ~/.ssh/id_rsa", "scp ~/.ssh/id_ed25519 host:", "cat {home}/.ssh/id_ecdsa", "cat /root/.ssh/authorized_keys", "cp id_rsa backup/",
      "ssh -i=~/.ssh/deploy host", "cat ~/.netrc", "cat ~/.git-credentials", "cat ~/.pgpass", "cat ~/.npmrc", "cat ~/.docker/config.json",
      "cat ~/.kube/config", "cat ~/.aws/credentials", "tar czf k.tgz ~/.gnupg/", "ls ~/.password-store", "cat ~/.config/gcloud/credentials.db",
      "cat /etc/shadow", "cat ~/.vault-token",
    ])
      expect(templateRiskLabels(t), t).toContain("risk.secret_touching");
    for (const t of ["cat ~/.ssh-notes.md", "cat id_rsa.pub", "docker build .", "kubectl get pods", "cat notes/sshd.md", "ls ssh/", "cat etc/shadowing.txt", "cat docker/config.json"])
      expect(templateRiskLabels(t), t).not.toContain("risk.secret_touching");
  });

  it("secret_touching: printing or reading the whole environment", () => {
    for (const t of [
      "env", "env -0", "/usr/bin/env --null", "env -u HOME", "env FOO=bar", "printenv", "printenv -0",
      "cat /proc/self/environ", "cat /proc/1234/environ", "tr '\\0' '\\n' < /proc/{pid}/environ", "sh -c 'cat /proc/$PPID/environ'",
      "node -e console.log(process.env.GITHUB_TOKEN)", "node --eval console.log(process.env)", "bun -e console.log(Bun.env)",
      "python3 -c 'import os; print(os.environ)'", "python3 -c 'import os; print(os.getenv(\"X\"))'", "ruby -e 'p ENV[\"X\"]'", "perl -e 'print %ENV'",
      "sh -c env", "sh -c 'env | grep X'", "bash -c 'cat; env'", "sh -c set", "bash -c 'echo; set'", "sh -c export", "sh -c 'export -p'",
      "bash -c 'declare -x'", "bash -c 'declare -p'", "zsh -c 'typeset -x'", "sh -c 'echo $(printenv)'", "sh -c 'printenv -0 | sort'",
    ])
      expect(templateRiskLabels(t), t).toContain("risk.secret_touching");
    for (const t of [
      "env node script.js", "env FOO=bar make", "env -u HOME make", "printenv HOME", "cat /proc/self/status", "cat environ.txt",
      "node script.js", "node -e console.log(1)", "python3 -c 'print(1)'", "sh -c 'set -e; make'", "sh -c 'export FOO=1; make'",
      "bash -c 'declare -a list'", "sh -c 'echo {env}'", "sh -c 'deploy --to {env} --set x'", "bash ./env.sh", "envsubst", "tool --env prod",
    ])
      expect(templateRiskLabels(t), t).not.toContain("risk.secret_touching");
  });

  it("secret_touching: the whole environment through a wrapper, a shell script's own commands, an inline script's code", () => {
    for (const t of [
      "command env", "busybox env", "nohup printenv", "env FOO=1 printenv",
      "sh -c 'exec env'", "sh -c 'env>x'", "sh -c 'env\t>x'", "sh -c 'env 2>/dev/null | sort'", "sh -c 'command env'",
      "sh -c 'if env; then :; fi'", "sh -c 'node -p process.env'",
      "ruby -e 'p ENV'", "node -p process.env", "node --print process.env", "node -pe process.env",
      "node -e 'console.log(require(\"process\").env)'", "node -e 'console.log(process.env.HOME, process.env)'",
      "node -e 'console.log(process.env[name])'", "deno eval 'console.log(Deno.env.toObject())'",
      "python3 -c 'from os import environ; print(environ)'", "python3.12 -c 'import os; print(os.environ)'",
      "node20 -e 'console.log(process.env)'", "perl -le 'print for keys %ENV'",
      "awk 'BEGIN{for(k in ENVIRON)print k}'", "gawk -F: 'BEGIN{print ENVIRON[\"HOME\"]}'",
      "jq -n env", "jq -n '$ENV'", "jq --arg a b -n '$ENV.PATH'",
    ])
      expect(templateRiskLabels(t), t).toContain("risk.secret_touching");
    for (const t of [
      "sh -c 'grep -rn process.env src'", "node -e 'console.log(process.env.HOME)'",
      "python3 -c 'import sys;print(sys.argv)' -- os.environ", "node script.js -p process.env",
      "command -v env", "busybox ls", "sh -c 'echo env; grep env README.md'", "sh -c 'make env=prod'",
      "awk -f prog.awk ENVIRON", "awk '{print $1}' ENVIRON", "jq .name config.json", "jq '.name == \"env\"'",
      "ruby script.rb ENV", "python3.12 script.py",
    ])
      expect(templateRiskLabels(t), t).not.toContain("risk.secret_touching");
  });

  it("secret_touching: the whole environment through timeout, sudo, nice and the other wrappers that run a command", () => {
    for (const t of [
      "timeout 5 env", "timeout -s KILL -k 2 5 env", "timeout --signal=KILL 5s printenv", "timeout --signal KILL 5 env", "timeout -sKILL 5 env",
      "timeout --sig KILL 5 env", "timeout -v --preserve-status 5 env", "timeout 5 sh -c env", "timeout -- 5 env",
      "sudo env", "sudo -u bob printenv", "sudo -u bob -g staff -C 5 -D /tmp -h host -p pw: -r role -t type -T 10 -U alice env",
      "sudo --user=bob env", "sudo --user bob env", "sudo -E env", "sudo -- env", "sudo -i env", "sudo -s printenv", "sudo FOO=1 env",
      "sudo node -p process.env", "sudo -ubob env", "/usr/bin/sudo -n -k env",
      "doas env", "doas -u bob printenv", "doas -n -s env",
      "nice env", "nice -n 5 env", "nice -n5 env", "nice -5 env", "nice --10 env", "nice --adjustment=5 env", "nice --adjustment 5 printenv",
      "ionice -c 3 env", "ionice -c 2 -n 7 -t env", "ionice -c3 -n7 env", "ionice --class idle env",
      "stdbuf -o0 env", "stdbuf -o 0 -e L env", "stdbuf -i0 -oL -eL printenv", "stdbuf --output=L env",
      "setsid env", "setsid -c -f -w env", "setsid --fork printenv",
      "time env", "time -p env", "/usr/bin/time -f %e -o /tmp/t -a -v env", "/usr/bin/time --format %e env", "/usr/bin/time -q printenv",
      "taskset 1 env", "taskset -c 0-3 env", "taskset -a 0x3 printenv",
      "chrt 10 env", "chrt -f 10 env", "chrt -o 0 printenv", "chrt -d -T 1000 -P 2000 -D 2000 0 env", "chrt --rr 5 env", "chrt -b env",
      "flock /tmp/x env", "flock -n -w 5 -E 3 /tmp/x env", "flock -w5 /tmp/x printenv", "flock --timeout 5 /tmp/x env",
      "flock /tmp/x -c env", "flock -s /tmp/x -c 'env | sort'", "flock /tmp/x --command 'export -p'",
      "chroot / env", "chroot --userspec=bob:bob / env", "chroot --userspec bob:bob --groups staff --skip-chdir / printenv",
      "unshare -r env", "unshare -f -p --mount-proc env", "unshare --map-root-user --net printenv", "unshare -R /srv -w / env",
      "unshare --propagation private -m env", "unshare --user=/tmp/ns env",
      "xargs env", "xargs printenv", "xargs -n 1 -P 4 env", "xargs -0 -I {} -d , -L 1 -s 100 -a list -E end env", "xargs -I{} env", "xargs -i env",
      "xargs --max-args 1 env",
      "sudo timeout 5 env", "nice -n 5 timeout 5 sudo -u bob env", "timeout 5 env FOO=1 printenv", "time nohup nice env",
      "sh -c 'timeout 5 env > x'", "sh -c 'sudo -u bob env | sort'", "bash -c 'time -p env'", "sh -c 'if time env; then :; fi'",
      "sh -c 'xargs env < list'", "timeout 5 node -e 'console.log(process.env)'", "sudo python3 -c 'import os; print(os.environ)'",
    ])
      expect(templateRiskLabels(t), t).toContain("risk.secret_touching");
    for (const t of [
      "timeout 5 printenv HOME", "timeout 5 make", "timeout -s KILL 5 make env", "timeout env", "timeout --help",
      "sudo -l", "sudo -l env", "sudo -ll env", "sudo -v", "sudo -e /etc/env", "sudo -i", "sudo -s", "sudo -u env make", "sudo -- make env", "sudo FOO=1",
      "sudo --list env", "sudo -V",
      "doas -C /etc/doas.conf env", "doas -L", "doas -u env make",
      "nice", "nice -n 5", "nice grep -rn env src", "nice -n 5 make env",
      "ionice -p 123 env", "ionice -c 3 make", "ionice -c env make",
      "stdbuf -o env make", "stdbuf -oL grep env log",
      "setsid make", "setsid -h env",
      "time make", "time -p make env", "/usr/bin/time -o env make", "/usr/bin/time -f env make",
      "taskset env make", "taskset -p 1 123", "taskset -c 0 make",
      "chrt -p 10 123", "chrt -m", "chrt 10 make", "chrt -T env 0 make",
      "flock /tmp/x make", "flock env make", "flock -w env /tmp/x make", "flock /tmp/x -c 'make env'", "flock 9",
      "chroot /srv", "chroot env", "chroot --userspec env / make",
      "unshare -r", "unshare -r make", "unshare -R env make", "unshare --map-user env make",
      "xargs", "xargs -n1 echo", "xargs -0", "xargs -I env echo env", "xargs -a env make", "xargs grep -l env", "xargs --help",
      "sudo timeout 5 printenv HOME", "sh -c 'timeout 5 make > env'", "sh -c 'time make env'", "nohup nice make",
    ])
      expect(templateRiskLabels(t), t).not.toContain("risk.secret_touching");
  });

  it("long_running: sleep, watch, tail -f, --watch/--serve/serve", () => {
    expect(templateRiskLabels("sleep 5")).toEqual(["risk.long_running"]);
    expect(templateRiskLabels("watch ls")).toEqual(["risk.long_running"]);
    expect(templateRiskLabels("tail -f log")).toEqual(["risk.long_running"]);
    expect(templateRiskLabels("tail -n 5 log")).toEqual([]);
    expect(templateRiskLabels("vite --watch")).toEqual(["risk.long_running"]);
    expect(templateRiskLabels("hugo serve")).toEqual(["risk.long_running"]);
  });

  it("platform_specific", () => {
    for (const cmd of ["systemctl restart x", "osascript -e x", "xdg-open f", "cmd.exe /c dir", "brew install x", "wl-copy"])
      expect(templateRiskLabels(cmd)).toContain("risk.platform_specific");
  });

  it("collects every leaf, recover subtrees included, in the fixed order without duplicates", () => {
    const template: Json = {
      template: ["cp {source} /etc/target", "curl https://example.test/{token}", "npm publish", "tail -f /tmp/app.log", "systemctl restart demo.service"],
      recover: { template: "bash -c 'cleanup'" },
    };
    expect(templateRiskLabels(template)).toEqual([
      "risk.shell",
      "risk.eval",
      "risk.broad_fs_write",
      "risk.external_side_effect",
      "risk.secret_touching",
      "risk.network",
      "risk.long_running",
      "risk.platform_specific",
    ]);
    expect(templateRiskLabels(["sleep 1", "sleep 2"])).toEqual(["risk.long_running"]);
  });

  it("output always follows RISK_LABEL_ORDER", () => {
    const labels = riskLabels(recipe(["systemctl x", "sleep 1", "rm -rf x", "bash -c y"], { async: true }));
    const positions = labels.map((l) => RISK_LABEL_ORDER.indexOf(l as (typeof RISK_LABEL_ORDER)[number]));
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
    expect(labels).toEqual(["risk.shell", "risk.eval", "risk.destructive_fs", "risk.long_running", "risk.platform_specific"]);
  });

  it("ignores non-string templates and empty leaves", () => {
    expect(templateRiskLabels(null)).toEqual([]);
    expect(templateRiskLabels(42)).toEqual([]);
    expect(templateRiskLabels("")).toEqual([]);
  });
});
