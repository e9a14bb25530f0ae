// The scan that keeps a recipe from becoming a tool without an operator's eyes on it: what it
// finds (the exact reason, and whether it is about secrets: such a draft is neither captured nor
// reviewed), and what it must leave alone (near misses of every rule), so a rule that widens or
// narrows shows here.
import { describe, expect, it } from "vitest";
import { findUnsafe, secretReason } from "../../../core/review/unsafe.js";
import type { Json } from "../../../core/model.js";

const KEY = "secret-bearing key";
const PRIVATE = { reason: "private-key material", secret: true };
const CREDENTIAL = { reason: "credential-shaped value", secret: true };
const AWS = { reason: "AWS credential reference", secret: true };
const MANAGER = { reason: "secret-manager reference", secret: true };
const VALUE = { reason: "secret-bearing value", secret: true };
const TEMP = { reason: "temporary path", secret: false };

const a = (n: number): string => "A".repeat(n);

describe("unsafe scan: what it finds", () => {
  it.each([
    "apiKey", "api_token", "access-key", "accessToken", "Authorization", "authKey", "auth_token", "clientSecret", "Cookie",
    "credential", "credentials", "PASSWORD", "passphrase", "private_key", "refreshToken", "secret", "secret_access_key",
    "sessionToken", "token", "vault-token",
  ])("a key named %s, whatever its value", (key) => {
    expect(findUnsafe({ defaults: { [key]: 1 } })).toEqual({ reason: `${KEY}: ${key}`, secret: true });
  });

  const found: ReadonlyArray<readonly [string, { reason: string; secret: boolean }]> = [
    ["-----BEGIN RSA PRIVATE KEY-----", PRIVATE],
    ["-----BEGIN PRIVATE KEY-----", PRIVATE],
    [`AKIA${a(16)}`, CREDENTIAL],
    [`id ASIA${"7".repeat(16)}`, CREDENTIAL],
    [`github_pat_${"a_".repeat(10)}`, CREDENTIAL],
    ...["p", "o", "u", "s", "r"].map((c) => [`gh${c}_${"a".repeat(20)}`, CREDENTIAL] as const),
    [`glpat-${"a-".repeat(10)}`, CREDENTIAL],
    [`npm_${"a".repeat(36)}`, CREDENTIAL],
    ...["b", "a", "p", "r", "s"].map((c) => [`xox${c}-${"1-".repeat(5)}`, CREDENTIAL] as const),
    ["cat ~/.aws/credentials", AWS],
    ["cat /root/.aws/config", AWS],
    ["echo $AWS_ACCESS_KEY_ID", AWS],
    ["echo $AWS_SECRET_ACCESS_KEY", AWS],
    ["echo $AWS_SESSION_TOKEN", AWS],
    ["aws  secretsmanager get-secret-value", AWS],
    ...["get", "read", "write", "put", "list"].map((v) => [`vault ${v} secret/app`, MANAGER] as const),
    ["vault kv  get secret/app", MANAGER],
    // the words of a command may be set apart by more than one space
    ["vault  kv get secret/app", MANAGER],
    ["vault\t read secret/app", MANAGER],
    ["echo $VAULT_TOKEN", MANAGER],
    ["az keyvault secret show", MANAGER],
    ["gcloud secrets versions access latest", MANAGER],
    ["az  keyvault secret show", MANAGER],
    ["gcloud  secrets  versions  access latest", MANAGER],
    ["curl -H 'Authorization: Bearer abc.def~+/-x'", VALUE],
    ["curl -H 'Authorization: Bearer  abc.def~+/-x'", VALUE],
    ...["api_key=abcd", "API-KEY: abcd", "apikey =abcd", "secret:abcd", "token= abcd", "Password=abcd", "passwd=abcd"].map((t) => [t, VALUE] as const),
    ...["env DB_PASSWORD=hunter2 true", "env GITHUB_TOKEN=abc123 true", "MY_APP_SECRET=s3cr3t ./run", "echo https://bob:hunter2@example.com/x", "git clone https://user:tok3n@git.example.com/r.git", "curl -u admin:hunter2 https://x", "curl --user=admin:hunter2 https://x", "sshpass -p hunter2 ssh host", "sshpass -phunter2 ssh host"].map((t) => [t, VALUE] as const),
    [`curl -H "x: eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"`, CREDENTIAL],
    ["/tmp/out", TEMP],
    ["cat /var/tmp/out", TEMP],
    ['cp "/tmp/x" .', TEMP],
    ["cp '/tmp/x' .", TEMP],
    ["dir C:\\temp\\x", TEMP],
    ["dir c:\\TMP\\x", TEMP],
    ["ls ~/.pi/agent/tmp/run", TEMP],
  ];
  it.each(found)("%s", (template, finding) => expect(findUnsafe({ template })).toEqual(finding));

  it("walks depth first and reports the first finding: lists, nested objects, rule order", () => {
    expect(findUnsafe({ steps: [{ run: "echo ok" }, { run: ["ls", "/tmp/x"] }] })).toEqual(TEMP);
    expect(findUnsafe({ first: "/tmp/x", password: "y" })).toEqual(TEMP);
    expect(findUnsafe({ password: "y", first: "/tmp/x" })).toEqual({ reason: `${KEY}: password`, secret: true });
    expect(findUnsafe({ template: "-----BEGIN PRIVATE KEY----- token=abcd /tmp/x" })).toEqual(PRIVATE);
    expect(findUnsafe({ template: "echo ok", nested: { deeper: { list: [1, true, null, "cat ~/.aws/credentials"] } } })).toEqual(AWS);
  });
});

describe("unsafe scan: near misses it leaves alone", () => {
  it.each([
    "-----BEGIN PUBLIC KEY-----",
    "-----BEGIN rsa PRIVATE KEY-----",
    `AKIA${a(15)}`,
    `XAKIA${a(16)}`,
    `AKIA${"a".repeat(16)}`,
    `github_pat_${"a".repeat(19)}`,
    `ghp_${"a".repeat(19)}`,
    `ghx_${"a".repeat(20)}`,
    `glpat-${"a".repeat(19)}`,
    `npm_${"a".repeat(35)}`,
    `xoxz-${"1".repeat(10)}`,
    `xoxb-${"1".repeat(9)}`,
    "cat ~/.aws/credentialsx",
    "cat aws/credentials",
    "echo $MY_AWS_ACCESS_KEY_ID",
    "awssecretsmanager",
    "aws secrets manager",
    "vault status",
    "vaultget x",
    "my_vault get",
    "echo $VAULT_TOKENS",
    "az key vault",
    "gcloud secrets list",
    "bearer abcdefg",
    "token=abc",
    "token = {value}",
    "token='abcd'",
    "tokens",
    "tmp/out",
    "a/tmp/out",
    "/tmpfile",
    "~/.pi/agent/tmpx/run",
    "echo {region}",
    // placeholders where a secret would be, and look-alikes of the new rules
    "env DB_PASSWORD={pw} true",
    "curl -u {user}:{pass} https://x",
    "sshpass -p {pw} ssh host",
    "echo https://{user}:{pw}@example.com",
    "curl http://localhost:8080/x",
    "git clone git@github.com:org/repo.git",
    "echo eyJ.notajwt.x",
    "echo GITHUB_TOKENS_LIST",
  ])("%s", (template) => expect(findUnsafe({ template })).toBeUndefined());

  it("keys that only look like secrets, and values that are not text", () => {
    expect(findUnsafe({ defaults: { tokens: "x", secretary: "x", keyring: "x", region: "us-east-1" } })).toBeUndefined();
    expect(findUnsafe({ n: 1, b: false, z: null, list: [] } as Json)).toBeUndefined();
  });
});

describe("secret reasons", () => {
  it("a secret finding of the scan, else the risk label, else none; a temporary path is not a secret", () => {
    expect(secretReason({ defaults: { password: "x" } }, [])).toBe(`${KEY}: password`);
    expect(secretReason({ template: "cat ~/.aws/credentials" }, ["risk.secret_touching"])).toBe("AWS credential reference");
    expect(secretReason({ template: "ls /tmp/x" }, [])).toBeUndefined();
    expect(secretReason({ template: "ls /tmp/x" }, ["risk.secret_touching"])).toBe("risk.secret_touching");
    expect(secretReason({ template: "echo ok" }, ["risk.network", "risk.secret_touching"])).toBe("risk.secret_touching");
    expect(secretReason({ template: "echo ok" }, ["risk.network", ""])).toBeUndefined();
  });
});
