// The clocks: counted down on the page's own monotonic clock from the `seconds` the server sent
// (docs/protocol.md, "Clocks"), never from the wall clock, which may be off.
import { formatClock } from "../ui.js";

/** Seconds left on `clock` now, its `seconds` having been true at `since` (ms, monotonic). */
export function clockSeconds(clock, since, now = performance.now()) {
  if (!clock.running) return clock.seconds;
  return clock.seconds - (now - since) / 1000;
}

/** Keep the clock numbers of `box` (the seats panel) running; returns a stop function. */
export function runClocks(box, store, every = 250) {
  const tick = () => {
    const state = store.state;
    for (const clock of state.clocks || []) {
      const el = box.querySelector(`[data-clock-seat="${clock.seat}"]`);
      if (!el) continue;
      const left = clockSeconds(clock, state.clockAt);
      el.textContent = formatClock(left);
      el.classList.toggle("low", clock.running && left < 30 && state.table?.mode === "live");
    }
  };
  const timer = setInterval(tick, every);
  return () => clearInterval(timer);
}
