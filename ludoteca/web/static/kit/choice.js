// A compound choice: the legal actions the server sent, narrowed by successive picks (a domino's
// square, then its direction; a defence card, then the attack; a building, then a town square).
// It knows no rule: an action is possible when it is in `legal` and agrees with every pick.
//
//   const choice = createChoice(legal, { cell: (a) => `${a.x},${a.y}`, dir: (a) => a.dir },
//     { only: (a) => a.type === "place", picks: saved });
//   choice.options("cell")   // Map value -> [indices in legal] among actions agreeing with the other picks
//   choice.pick("cell", "2,1") // false when no such action: nothing changes
//   choice.chosen()          // the index in legal once the picks leave exactly one action, else -1
//
// Picks are plain data ({step: value}) so a renderer keeps them across redraws (`picks`) and
// hands them back; a pick the new `legal` no longer allows is dropped.

/** The index of the first legal action `pred` accepts, or -1. */
export function indexOf(legal, pred) {
  for (let i = 0; i < legal.length; i++) if (pred(legal[i])) return i;
  return -1;
}

export function createChoice(legal, steps, { only = () => true, picks = {} } = {}) {
  const names = Object.keys(steps);
  const pool = [];
  legal.forEach((action, index) => { if (only(action)) pool.push(index); });
  const chosen = {};

  const agrees = (index, except) => names.every((step) =>
    step === except || !(step in chosen) || steps[step](legal[index]) === chosen[step]);

  const choice = {
    /** The current picks ({step: value}); keep it to restore the choice after a redraw. */
    get picks() { return { ...chosen }; },
    /** Every action index of the pool (the actions this choice is about). */
    get pool() { return pool.slice(); },
    /** Indices agreeing with every pick (but `except`'s). */
    matching(except = null) {
      return pool.filter((index) => agrees(index, except));
    },
    /** Value -> indices for `step`, among the actions agreeing with the other picks. */
    options(step) {
      const out = new Map();
      for (const index of choice.matching(step)) {
        const value = steps[step](legal[index]);
        if (!out.has(value)) out.set(value, []);
        out.get(value).push(index);
      }
      return out;
    },
    has(step) { return step in chosen; },
    value(step) { return chosen[step]; },
    /** Pick `value` for `step`; false (and no change) when no action agrees with it. */
    pick(step, value) {
      if (!choice.options(step).has(value)) return false;
      chosen[step] = value;
      return true;
    },
    /** Pick `value` for `step` and drop the other picks that no longer fit with it. */
    force(step, value) {
      const previous = { ...chosen };
      for (const other of names) if (other !== step) delete chosen[other];
      if (!choice.pick(step, value)) { Object.assign(chosen, previous); return false; }
      for (const other of names) if (other !== step && other in previous) choice.pick(other, previous[other]);
      return true;
    },
    drop(step) { delete chosen[step]; },
    clear() { for (const step of names) delete chosen[step]; },
    /** The one action left once every step is picked, else -1. */
    chosen() {
      if (!names.every((step) => step in chosen)) return -1;
      const left = choice.matching();
      return left.length === 1 ? left[0] : -1;
    },
  };
  for (const step of names) if (step in picks) choice.pick(step, picks[step]);
  return choice;
}
