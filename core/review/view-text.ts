// The review views are bounded: a text longer than its limit is cut one character short of it and
// ends in an ellipsis, so the shown text is exactly `limit` characters; a text that fits is whole.
export const cutText = (text: string, limit: number): string => (text.length > limit ? `${text.slice(0, limit - 1)}…` : text);
