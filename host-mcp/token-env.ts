// The environment variables that hold the HTTP server's bearer token (host-mcp/auth.ts reads
// them), in a module of their own so that the command line's help can name them without loading
// the checks. They are named where the rule that no child inherits them is kept.
export { TOKEN_ENV, TOKEN_FILE_ENV } from "../adapters/process/child-env.js";
