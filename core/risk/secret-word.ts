// A secret-ish word counts only as a delimited part: `{api_key}` and `GITHUB_TOKEN` do,
// `tokens` and `tokenizer` do not.
export const SECRET_PART =
  /(?:^|[\s{}._/-])(?:secret|token|passw(?:or)?d|credential|(?:api|private|ssh)[_-]?key|\.env)(?=$|[\s{}._/-])/i;
