// The environment variable that holds the HTTP server's bearer token (host-mcp/auth.ts reads it),
// in a module of its own so that the command line's help can name it without loading the checks.
export const TOKEN_ENV = "PI_RECIPES_MCP_TOKEN";
