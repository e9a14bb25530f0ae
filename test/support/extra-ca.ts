// Node 20 loads the certificates that NODE_EXTRA_CA_CERTS names when a process starts, whether or
// not the process ever opens a TLS connection: on the 2-core development machine, where that
// variable names the system bundle, `node -e 0` took about 0.045 s more CPU with it than without
// (Node 22 loads them only when a TLS connection needs them). The suite starts thousands of node
// processes (vitest's workers, every `pi-recipes` command, MCP server and worker a test runs), none
// of which opens a TLS connection, so the test run sets the variable aside (test/support/global-setup.ts)
// and gives it back only to the commands that reach the npm registry (docs/testing.md).

/** where the run keeps the value it set aside */
const KEPT = "PI_RECIPES_TEST_NODE_EXTRA_CA_CERTS";

/** Removes NODE_EXTRA_CA_CERTS from this process's environment (so from every process started
 *  after this), keeping its value for `withExtraCa`. */
export function setExtraCaAside(env: NodeJS.ProcessEnv = process.env): void {
  const value = env["NODE_EXTRA_CA_CERTS"];
  if (value === undefined) return;
  env[KEPT] = value;
  delete env["NODE_EXTRA_CA_CERTS"];
}

/** The environment for a command that reaches the network (npm): `env` with NODE_EXTRA_CA_CERTS
 *  as the run found it. */
export function withExtraCa(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const kept = env[KEPT];
  return kept === undefined || env["NODE_EXTRA_CA_CERTS"] !== undefined ? env : { ...env, NODE_EXTRA_CA_CERTS: kept };
}
