// JSON values as read from recipe files and sent to agents. A module of its own so that the
// recipe-field table (recipe/fields.ts) can use them without importing model.ts, which imports the
// table; model.ts re-exports them.
export type Json = null | boolean | number | string | readonly Json[] | { readonly [k: string]: Json };
export type JsonObject = { readonly [k: string]: Json };
