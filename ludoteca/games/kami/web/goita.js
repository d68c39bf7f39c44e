// Goita runs on Kami's engine (ludoteca/games/kami/goita.py): same renderer, its own name.
import kami from "./kami.js";
import { describePlay } from "./kami_cards.js";

export default { ...kami, name: "goita", describe: (action, t) => describePlay(action, t, true) };
