// Score parts and tie-break reasons as the engine sends them: {id, msg, points | value, args},
// plus `text` in the viewer's language once the server has said them (engine/parts.py,
// render_parts). The browser counts nothing: it shows `text`, or, where a message arrived
// unsaid, fills the English message id with its arguments.

/** An argument as words: a nested message, a player ({seat}), or the value itself. */
function arg(value, names) {
  if (value && typeof value === "object") {
    if (typeof value.msg === "string") return say(value.msg, value.args, names);
    if (typeof value.seat === "number") return names[value.seat] ?? `P${value.seat + 1}`;
  }
  return String(value);
}

/** The English message `msg` with its `{fields}` filled from `args`. */
export function say(msg, args = {}, names = []) {
  return msg.replace(/\{(\w+)\}/g, (whole, key) => (key in (args || {}) ? arg(args[key], names) : whole));
}

/** What a part or tie-break reason says: the server's sentence, else the English one. */
export function partText(part, names = []) {
  return typeof part.text === "string" ? part.text : say(part.msg, part.args, names);
}
